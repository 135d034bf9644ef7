package dev.sqlbench.jdbc;

import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * The timing loop, the twin of Go's bench.Measure: two clock reads around
 * the whole loop give the elapsed time; the latency of a random 1 in
 * SAMPLE_GAP operations (gaps drawn from 1 to 2*SAMPLE_GAP-1 with a seed fixed
 * by n, so positions repeat run to run) goes into an HDR histogram; the
 * thread's allocated bytes are read before and after.
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

    /** Runs operations [0, n) of op untimed. */
    public static void warm(Workload.Op op, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            try {
                op.run(i);
            } catch (Exception e) {
                throw new OpException("warm-up operation " + i, e);
            }
        }
    }

    /**
     * Times operations [first, first+n) of op into a sample; h is reset and
     * filled. The first exception ends the run: a failed run has no sample.
     */
    public static Sample measure(Workload.Op op, int first, int n, Histogram h) throws Exception {
        h.reset();
        SplittableRandom rng = new SplittableRandom(((long) n << 32) | SAMPLE_GAP);
        int end = first + n;
        int next = first + rng.nextInt(Math.min(SAMPLE_GAP, n));
        System.gc(); // as Go's runtime.GC(): each run starts from a collected heap
        long bytes0 = Allocations.current();
        long cpu0 = Allocations.cpuNanos();
        long start = System.nanoTime();
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
            try {
                op.run(i);
            } catch (Exception e) {
                throw new OpException("operation " + (i - first), e);
            }
            h.recordValue(Math.max(1, Math.min(System.nanoTime() - t0, MAX_LATENCY)));
            next = i + 1 + rng.nextInt(2 * SAMPLE_GAP - 1);
        }
        long elapsed = System.nanoTime() - start;
        long cpu = Allocations.cpuNanos() - cpu0;
        long bytes = Allocations.current() - bytes0;
        return new Sample(n, elapsed, bytes, h, cpu);
    }

    /** An operation failed; the message names it, the cause says why. */
    public static final class OpException extends Exception {
        private static final long serialVersionUID = 1L;

        OpException(String what, Exception cause) {
            super(what + ": " + Server.describe(cause), cause);
        }
    }
}
