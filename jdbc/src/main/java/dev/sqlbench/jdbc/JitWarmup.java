package dev.sqlbench.jdbc;

/**
 * The extra warm-up a cell's first run gets in a JVM, so that the timed runs
 * measure compiled code: untimed full runs (begin, the run's operations,
 * end) repeated until at least minOps operations and minMillis have passed,
 * and never longer than maxMillis (at least one run). The defaults come from
 * the warm-up curves in docs/targets.md, "JDBC baseline"; -Dsqlbench.jit.minOps,
 * -Dsqlbench.jit.minMillis and -Dsqlbench.jit.maxMillis override them (0
 * turns it off, to measure a cold JVM: sqlbench reproduce does for a study
 * whose programs ran cold, unless asked for the warm-up).
 *
 * @param minOps operations to run at least
 * @param minMillis time to spend at least
 * @param maxMillis time to spend at most
 */
public record JitWarmup(long minOps, long minMillis, long maxMillis) {
    /** The defaults: see docs/targets.md, "JDBC baseline". */
    public static final JitWarmup DEFAULT = new JitWarmup(20_000, 0, 10_000);

    /** Returns the warm-up the system properties ask for, or the default. */
    public static JitWarmup fromProperties() {
        return new JitWarmup(Long.getLong("sqlbench.jit.minOps", DEFAULT.minOps),
                Long.getLong("sqlbench.jit.minMillis", DEFAULT.minMillis),
                Long.getLong("sqlbench.jit.maxMillis", DEFAULT.maxMillis));
    }

    /** Whether it does anything. */
    public boolean on() {
        return maxMillis > 0 && (minOps > 0 || minMillis > 0);
    }

    /** Describes it for a configuration line. */
    public String describe() {
        if (!on()) {
            return "off: a cell's first timed run is its first in this JVM (a cold JVM, as a published Java program"
                    + " that had no warm-up ran)";
        }
        String until = minMillis > 0 ? minOps + " operations and " + minMillis + " ms" : minOps + " operations";
        return "untimed full runs before a cell's first timed run until " + until + ", at most " + maxMillis + " ms";
    }

    /** Whether another untimed run is due after ops operations and elapsed ms. */
    public boolean more(long ops, long elapsedMillis) {
        if (!on() || elapsedMillis >= maxMillis) {
            return false;
        }
        return ops < minOps || elapsedMillis < minMillis;
    }
}
