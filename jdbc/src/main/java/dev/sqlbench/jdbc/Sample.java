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
 * @param clientThreadNanos CPU time of a parallel run's client threads, or 0
 */
public record Sample(int n, long elapsedNanos, long bytes, Histogram latency, long cpuNanos, double bytesPerOp,
        long clientThreadNanos) {

    /** A sample of a run that is not parallel. */
    public Sample(int n, long elapsedNanos, long bytes, Histogram latency, long cpuNanos, double bytesPerOp) {
        this(n, elapsedNanos, bytes, latency, cpuNanos, bytesPerOp, 0);
    }

    /** Returns the mean time per operation in nanoseconds. */
    public double nsPerOp() {
        return (double) elapsedNanos / n;
    }

    /**
     * Returns the CPU time of a parallel run's client threads, which are
     * born and gone inside the timed region, or 0 for other runs (their
     * threads outlive it and are read by TimeShare).
     */
    public long parallelCpuNanos() {
        return clientThreadNanos;
    }
}
