package dev.sqlbench.jdbc;

import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A workload set up on an open connection, kept between runs, with the sums
 * of the runs whose slices are still coming.
 */
final class Cell {
    final Env env;
    final Workload workload;
    private final Map<Integer, Partial> runs = new HashMap<>();

    Cell(Env env, Workload workload) {
        this.env = env;
        this.workload = workload;
    }

    /** The sum of a run's slices so far. */
    private static final class Partial {
        int slices, n;
        long elapsed, bytes, cpu;
        double bytesPerOp;
        Histogram latency = Harness.newHistogram();
    }

    /**
     * Adds slice req.slice of run req.run to the run's sums, as Go's runner
     * does; returns the whole run's sample after its last slice, else null.
     * Slices must arrive in order.
     */
    Sample addSlice(Request req, Sample s) throws ProtocolException {
        Partial p = runs.get(req.run);
        if (p == null) {
            if (req.slice != 1) {
                throw new ProtocolException("slice " + req.slice + " of run " + req.run + " arrived without the slices before it");
            }
            p = new Partial();
            runs.put(req.run, p);
        }
        if (req.slice != p.slices + 1) {
            runs.remove(req.run);
            throw new ProtocolException("slice " + req.slice + " of run " + req.run + " arrived after slice " + p.slices);
        }
        p.slices++;
        p.n += s.n();
        p.elapsed += s.elapsedNanos();
        p.bytes += s.bytes();
        p.cpu += s.cpuNanos();
        p.bytesPerOp = s.bytesPerOp();
        if (s.latency() != null && p.latency != null) {
            p.latency.add(s.latency());
        } else {
            p.latency = null;
        }
        if (p.slices < req.slices) {
            return null;
        }
        runs.remove(req.run);
        return new Sample(p.n, p.elapsed, p.bytes, p.latency, p.cpu, p.bytesPerOp);
    }
}
