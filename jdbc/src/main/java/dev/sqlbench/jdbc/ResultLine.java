package dev.sqlbench.jdbc;

import java.math.BigDecimal;

/**
 * Formats a sample as a result line in the Go benchmark format, with the
 * units of the Go runner except allocs/op, which a JVM cannot count:
 * ns/op, ops/s, B/op, MB/s (for workloads that move a payload), and
 * p50-ns/op, p99-ns/op, p99.9-ns/op (for those timed operation by operation).
 * Where the time went (oncpu-ns/op, runq-ns/op, blocked-ns/op, bg-cpu-ns/op,
 * server-cpu-ns/op) is appended by TimeShare.units.
 */
public final class ResultLine {
    private ResultLine() {
    }

    /** Returns the line for run name (without "Benchmark") and sample s, without a newline. */
    public static String format(String name, Sample s) {
        double ns = s.nsPerOp();
        StringBuilder b = new StringBuilder("Benchmark").append(name).append(' ').append(s.n());
        unit(b, ns, "ns/op");
        unit(b, 1e9 / ns, "ops/s");
        unit(b, (double) s.bytes() / s.n(), "B/op");
        if (s.bytesPerOp() > 0) {
            unit(b, s.bytesPerOp() * 1e3 / ns, "MB/s");
        }
        if (s.latency() != null && s.latency().getTotalCount() > 0) {
            unit(b, s.latency().getValueAtPercentile(50), "p50-ns/op");
            unit(b, s.latency().getValueAtPercentile(99), "p99-ns/op");
            unit(b, s.latency().getValueAtPercentile(99.9), "p99.9-ns/op");
        }
        return b.toString();
    }

    private static void unit(StringBuilder b, double v, String unit) {
        b.append(' ').append(number(v)).append(' ').append(unit);
    }

    /**
     * Formats v as Go's %v does for the values a result line holds: integers
     * without a fraction, others in plain decimal notation.
     */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : v < 0 ? "-Inf" : "NaN";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e18) {
            return Long.toString((long) v);
        }
        return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }
}
