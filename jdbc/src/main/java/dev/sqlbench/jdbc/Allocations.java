package dev.sqlbench.jdbc;

import java.lang.management.ManagementFactory;

/**
 * Heap bytes allocated by the calling thread (and its CPU time, a
 * diagnostic), from HotSpot's per-thread
 * counter (com.sun.management.ThreadMXBean.getThreadAllocatedBytes). It
 * counts what the thread allocated, whether or not it was collected since;
 * it cannot count objects (so no allocs/op), nor what other threads allocate
 * on the operations' behalf.
 */
public final class Allocations {
    private static final com.sun.management.ThreadMXBean MX = bean();

    private Allocations() {
    }

    private static com.sun.management.ThreadMXBean bean() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean b
                && b.isThreadAllocatedMemorySupported()) {
            b.setThreadAllocatedMemoryEnabled(true);
            return b;
        }
        return null;
    }

    /** Whether this JVM counts allocated bytes per thread. */
    public static boolean supported() {
        return MX != null;
    }

    /** Returns the CPU time the calling thread has used so far in nanoseconds, or 0 when unsupported. */
    public static long cpuNanos() {
        return MX == null || !MX.isCurrentThreadCpuTimeSupported() ? 0 : MX.getCurrentThreadCpuTime();
    }

    /** Returns the bytes the calling thread has allocated so far, or 0 when unsupported. */
    public static long current() {
        return MX == null ? 0 : MX.getCurrentThreadAllocatedBytes();
    }
}
