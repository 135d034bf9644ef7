package dev.sqlbench.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The timing loop, the twin of Go's bench.Measure: two clock reads around
 * the whole run give the elapsed time; the latency of a random 1 in
 * SAMPLE_GAP operations (gaps drawn from 1 to 2*SAMPLE_GAP-1 with a seed fixed
 * by n, so positions repeat run to run) goes into an HDR histogram; the heap
 * bytes the operating threads allocated are read from each thread's own
 * counter before and after, and summed. A parallel run's client threads take
 * the next operation number until the run's operations are done, as Go's
 * goroutines do.
 */
public final class Harness {
    /** The mean distance between operations whose latency is recorded. */
    public static final int SAMPLE_GAP = 8;
    /** The longest latency the histogram tracks: one hour. */
    public static final long MAX_LATENCY = 3_600_000_000_000L;

    private Harness() {
    }

    /** Returns a histogram of 1 ns to one hour at three significant digits, as Go's. */
    public static Histogram newHistogram() {
        return new Histogram(1, MAX_LATENCY, 3);
    }

    /**
     * Runs operations [0, n) of r untimed; a run with a start, between a
     * start and a finish of its own, as Go's bench.Warm.
     */
    public static void warm(Workload.Run r, int n) throws Exception {
        if (n <= 0) {
            return;
        }
        if (r.start() != null) {
            try {
                r.start().end();
            } catch (Exception e) {
                throw new OpException("warm-up: start", e);
            }
            warmOps(r, n);
            if (r.finish() != null) {
                try {
                    r.finish().end();
                } catch (Exception e) {
                    throw new OpException("warm-up: finish", e);
                }
            }
            return;
        }
        warmOps(r, n);
    }

    private static void warmOps(Workload.Run r, int n) throws Exception {
        try {
            if (r.batch() != null) {
                r.batch().run(0, n);
                return;
            }
            if (r.parallel() != null) {
                parallel(r.parallel(), 0, n, null, null, 0);
                return;
            }
            for (int i = 0; i < n; i++) {
                try {
                    r.op().run(i);
                } catch (Exception e) {
                    throw new OpException("operation " + i, e);
                }
            }
        } catch (Exception e) {
            throw new OpException("warm-up", e);
        }
    }

    /**
     * Times operations [first, first+n) of r into a sample; h is reset and
     * filled. The first exception ends the run: a failed run has no sample.
     */
    public static Sample measure(Workload.Run r, int first, int n, Histogram h) throws Exception {
        return measure(r, first, n, h, null);
    }

    /**
     * Measure with probe, when not null: its readings of the process and of
     * the server are taken right before the timed region and right after
     * it (after the collection that precedes it, outside the memory
     * readings), never per operation; and the timing thread(s) read their
     * own schedstat right next to the clock (SchedStat: no allocation), for
     * the sample's split of the elapsed time.
     */
    public static Sample measure(Workload.Run r, int first, int n, Histogram h, TimeShare probe) throws Exception {
        return measure(r, first, n, h, probe, false, false);
    }

    /**
     * Measure of one slice of a run: continued (a slice after the first)
     * runs the run's start untimed before the clock, continues (a slice
     * before the last) its finish untimed after it, as Go's
     * bench.Options.Continued and Continues.
     */
    public static Sample measure(Workload.Run r, int first, int n, Histogram h, TimeShare probe, boolean continued,
            boolean continues) throws Exception {
        return measure(r, first, n, h, probe, continued, continues, null, null, null);
    }

    /**
     * Measure, open-loop when ol is not null (OpenLoop, run --rate): the
     * run's operations (a sequential run's on one client thread, a parallel
     * run's on its clients) follow ol's arrival schedule, every latency from
     * its scheduled start goes into h, the sample's n counts the arrivals
     * (done and skipped), the time series' intervals go to onProgress (may
     * be null) as they close, and stats[0] gets the run's open-loop counts.
     * A run whose operations are a batch or pause their timer cannot.
     */
    public static Sample measure(Workload.Run r, int first, int n, Histogram h, TimeShare probe, boolean continued,
            boolean continues, OpenLoop ol, java.util.function.Consumer<OpenLoop.Interval> onProgress,
            OpenLoop.Stats[] stats) throws Exception {
        boolean open = ol != null;
        if (open && (r.batch() != null || r.timer() != null)) {
            throw new Exception("an open-loop run needs operations timed one by one (this workload's are a batch "
                    + "or pause their timer)");
        }
        List<Workload.Op> ops = !open ? null : r.parallel() != null ? r.parallel() : List.of(r.op());
        if (r.start() != null && continued) {
            try {
                r.start().end();
            } catch (Exception e) {
                throw new OpException("start", e);
            }
        }
        h.reset();
        // A parallel run's per-client histograms are made before the clock
        // and merged after it, as Go's: neither is the driver's work.
        Histogram[] hs = null;
        if (!open && r.batch() == null && r.parallel() != null) {
            hs = new Histogram[r.parallel().size()];
            hs[0] = h;
            for (int i = 1; i < hs.length; i++) {
                hs[i] = newHistogram();
            }
        }
        Timer timer = r.timer();
        if (timer != null) {
            if (r.parallel() != null) {
                throw new IllegalArgumentException("a parallel run cannot pause its timer");
            }
            timer.reset();
        }
        boolean onThisThread = !open && (r.batch() != null || r.parallel() == null);
        System.gc(); // as Go's runtime.GC(): each run starts from a collected heap
        SchedStat me = probe != null && onThisThread ? SchedStat.open() : null;
        List<TimeSplit.Reading> clients = probe != null && !onThisThread ? new ArrayList<>() : null;
        // A parallel run's start and finish run on this thread while no
        // client does: their times are each client's share of that wall
        // time (as Go's harness), read from this thread's schedstat.
        boolean hasSerial = clients != null && (r.start() != null || r.finish() != null);
        SchedStat coord = hasSerial ? SchedStat.open() : null;
        long[] serial = {0, 0};
        boolean serialKnown = !hasSerial || coord != null;
        Sample s;
        long elapsed, cpu, bytes, meCpu0 = 0, meRunq0 = 0;
        boolean read1;
        try {
            if (probe != null) {
                probe.start();
            }
            long bytes0 = Allocations.current();
            long cpu0 = Allocations.cpuNanos();
            boolean read0 = me != null && me.read();
            if (read0) {
                meCpu0 = me.cpu();
                meRunq0 = me.runq();
            }
            long start = System.nanoTime();
            if (r.start() != null && !continued) {
                serialKnown &= serial(coord, serial, r.start(), "start") || !hasSerial;
            }
            if (open) {
                long deadline = r.durationNanos() > 0 ? start + r.durationNanos() : 0;
                OpenLoop.Result res = ol.run(ops, first, n, h, deadline, onProgress, clients);
                if (deadline != 0 && res.arrivals() == 0) {
                    throw new Exception("no operation arrived within " + r.durationNanos() / 1_000_000 + " ms");
                }
                s = new Sample(res.arrivals(), 0, res.bytes(), h, res.cpu(), 0);
                if (stats != null) {
                    stats[0] = res.stats();
                }
            } else if (r.batch() != null) {
                r.batch().run(first, n);
                s = new Sample(n, 0, 0, null, 0, 0);
            } else if (r.parallel() != null) {
                long deadline = r.durationNanos() > 0 ? start + r.durationNanos() : 0;
                s = parallel(r.parallel(), first, n, hs, clients, deadline);
                if (deadline != 0 && s.n() == 0) {
                    throw new Exception("no operation finished within " + r.durationNanos() / 1_000_000 + " ms");
                }
            } else {
                s = sequential(r.op(), first, n, h, timer);
            }
            if (r.finish() != null && !continues) {
                serialKnown &= serial(coord, serial, r.finish(), "finish") || !hasSerial;
            }
            elapsed = System.nanoTime() - start;
            read1 = read0 && me.read();
            cpu = Allocations.cpuNanos() - cpu0;
            bytes = Allocations.current() - bytes0;
        } finally {
            if (me != null) {
                me.close();
            }
            if (coord != null) {
                coord.close();
            }
        }
        if (probe != null) {
            probe.stop();
        }
        if (r.finish() != null && continues) {
            // an earlier slice of a run: its last slice times the finish
            try {
                r.finish().end();
            } catch (Exception e) {
                throw new OpException("finish", e);
            }
        }
        long paused = 0;
        if (timer != null) {
            timer.start(); // a run that ended paused
            paused = timer.paused();
            elapsed -= paused;
        }
        cpu = Math.max(cpu - paused, 0);
        TimeSplit time = null;
        if (read1) {
            time = TimeSplit.of(List.of(TimeSplit.Reading.between(me.tid(), meCpu0, meRunq0, me.cpu(), me.runq())),
                    elapsed, paused);
        } else if (clients != null && clients.size() == (open ? ops : r.parallel()).size() && serialKnown) {
            // each client thread's readings against the run's whole elapsed
            // time, with what this thread did alone in it (start, finish)
            time = TimeSplit.withSerial(clients, coord == null ? null : coord.tid(), serial[0], serial[1], elapsed);
        }
        if (r.parallel() != null || open) {
            for (int i = 1; hs != null && i < hs.length; i++) {
                h.add(hs[i]);
            }
            // the client threads' own counts, plus what this thread did (the start and finish)
            return new Sample(s.n(), elapsed, s.bytes() + bytes, s.latency(), s.cpuNanos() + cpu, r.bytesPerOp(), time);
        }
        return new Sample(n, elapsed, bytes, s.latency(), cpu, r.bytesPerOp(), time);
    }

    /**
     * Runs e (a parallel run's start or finish) on this thread, adding what
     * it spent on a CPU and in the run queue to serial[0] and serial[1];
     * returns whether both readings of coord (which may be null) were read.
     */
    private static boolean serial(SchedStat coord, long[] serial, Workload.End e, String what) throws Exception {
        boolean read0 = coord != null && coord.read();
        long cpu0 = read0 ? coord.cpu() : 0, runq0 = read0 ? coord.runq() : 0;
        try {
            e.end();
        } catch (Exception ex) {
            throw new OpException(what, ex);
        }
        boolean read1 = read0 && coord.read();
        if (read1) {
            serial[0] += coord.cpu() - cpu0;
            serial[1] += coord.runq() - runq0;
        }
        return read1;
    }

    /**
     * The loop of a run on one thread; the latency of a sampled operation
     * excludes what it paused on t (which may be null).
     */
    private static Sample sequential(Workload.Op op, int first, int n, Histogram h, Timer t) throws Exception {
        SplittableRandom rng = new SplittableRandom(((long) n << 32) | SAMPLE_GAP);
        int end = first + n;
        int next = first + rng.nextInt(Math.min(SAMPLE_GAP, n));
        for (int i = first; i < end; i++) {
            if (i != next) {
                try {
                    op.run(i);
                } catch (Exception e) {
                    throw new OpException("operation " + (i - first), e);
                }
                continue;
            }
            long t0 = System.nanoTime();
            long p0 = t == null ? 0 : t.pausedNow();
            try {
                op.run(i);
            } catch (Exception e) {
                throw new OpException("operation " + (i - first), e);
            }
            long d = System.nanoTime() - t0 - (t == null ? 0 : t.pausedNow() - p0);
            h.recordValue(Math.min(Math.max(d, 0), MAX_LATENCY));
            next = i + 1 + rng.nextInt(2 * SAMPLE_GAP - 1);
        }
        return new Sample(n, 0, 0, h, 0, 0);
    }

    /** What one client thread of a parallel run measured. */
    private static final class Client {
        long bytes, cpu;
        Histogram hist;
        Exception err;
        TimeSplit.Reading time;
    }

    /**
     * Runs operations [first, first+n) on one thread per op, each claiming
     * the next operation number; hs, when not null, holds one histogram per
     * client for its sampled latencies (the caller merges them); readings,
     * when not null, gets each client thread's schedstat readings from its
     * start to its end (none where the kernel does not give them). With a
     * deadline (a System.nanoTime value, 0 for none) the clients stop claiming
     * operations once it has passed; the sample's n is the operations done.
     */
    private static Sample parallel(List<Workload.Op> ops, int first, int n, Histogram[] hs,
            List<TimeSplit.Reading> readings, long deadline) throws Exception {
        AtomicLong claim = new AtomicLong(first);
        AtomicLong finished = new AtomicLong();
        AtomicBoolean failed = new AtomicBoolean();
        long end = (long) first + n;
        List<Client> clients = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int w = 0; w < ops.size(); w++) {
            Workload.Op op = ops.get(w);
            Client c = new Client();
            c.hist = hs == null ? null : hs[w];
            clients.add(c);
            int client = w;
            Thread t = new Thread(() -> {
                SchedStat me = readings == null ? null : SchedStat.open();
                try {
                    SplittableRandom rng = new SplittableRandom(((long) n + ((long) client << 32)) ^ SAMPLE_GAP);
                    int sample = rng.nextInt(SAMPLE_GAP);
                    long bytes0 = Allocations.current();
                    long cpu0 = Allocations.cpuNanos();
                    boolean read0 = me != null && me.read();
                    long meCpu0 = read0 ? me.cpu() : 0, meRunq0 = read0 ? me.runq() : 0;
                    for (int k = 0; !failed.get(); k++) {
                        if (deadline != 0 && System.nanoTime() - deadline >= 0) {
                            break;
                        }
                        long i = claim.getAndIncrement();
                        if (i >= end) {
                            break;
                        }
                        try {
                            if (c.hist != null && k == sample) {
                                long t0 = System.nanoTime();
                                op.run((int) i);
                                c.hist.recordValue(Math.min(System.nanoTime() - t0, MAX_LATENCY));
                                sample = k + 1 + rng.nextInt(2 * SAMPLE_GAP - 1);
                            } else {
                                op.run((int) i);
                            }
                        } catch (Exception e) {
                            c.err = new OpException("client " + client + ", operation " + (i - first), e);
                            failed.set(true);
                            break;
                        }
                        finished.incrementAndGet();
                    }
                    boolean read1 = read0 && me.read();
                    c.cpu = Allocations.cpuNanos() - cpu0;
                    c.bytes = Allocations.current() - bytes0;
                    if (read1) {
                        c.time = TimeSplit.Reading.between(me.tid(), meCpu0, meRunq0, me.cpu(), me.runq());
                    }
                } finally {
                    if (me != null) {
                        me.close();
                    }
                }
            }, "sqlbench-client-" + w);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long elapsed = System.nanoTime() - start;
        long bytes = 0, cpu = 0;
        for (Client c : clients) {
            if (c.err != null) {
                throw c.err;
            }
            bytes += c.bytes;
            cpu += c.cpu;
            if (readings != null && c.time != null) {
                readings.add(c.time);
            }
        }
        return new Sample((int) finished.get(), elapsed, bytes, hs == null ? null : hs[0], cpu, 0);
    }

    /** An operation failed; the message names it, the cause says why. */
    public static final class OpException extends Exception {
        private static final long serialVersionUID = 1L;

        OpException(String what, Exception cause) {
            super(what + ": " + Server.describe(cause), cause);
        }
    }
}
