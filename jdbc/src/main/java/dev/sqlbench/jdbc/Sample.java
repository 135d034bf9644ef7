package dev.sqlbench.jdbc;

import org.HdrHistogram.Histogram;

/**
 * What one timed run, or one slice of a run, measured.
 *
 * @param n the number of operations timed
 * @param elapsedNanos the wall time of the n operations
 * @param bytes heap bytes the operating threads allocated during the run
 * @param latency the latencies of the sampled operations, in nanoseconds
 * @param cpuNanos CPU time of the operating threads (a diagnostic, on stderr:
 *     it shows the JIT at work on a machine too busy for wall time to)
 * @param bytesPerOp the payload one operation moves, or 0
 * @param time how the timing thread(s) spent elapsedNanos, or null where
 *     the kernel does not say (or the run was not probed)
 */
public record Sample(int n, long elapsedNanos, long bytes, Histogram latency, long cpuNanos, double bytesPerOp,
        TimeSplit time) {

    /** A sample without a split of its time. */
    public Sample(int n, long elapsedNanos, long bytes, Histogram latency, long cpuNanos, double bytesPerOp) {
        this(n, elapsedNanos, bytes, latency, cpuNanos, bytesPerOp, null);
    }

    /** Returns the mean time per operation in nanoseconds. */
    public double nsPerOp() {
        return (double) elapsedNanos / n;
    }
}
