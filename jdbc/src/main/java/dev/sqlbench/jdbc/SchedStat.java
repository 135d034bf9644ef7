package dev.sqlbench.jdbc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The kernel's accounting of one thread, the thread that opened it, read
 * without allocating on the heap, so that a reading can sit inside the
 * memory readings of a run. Its time runnable but waiting for a CPU
 * (run_delay, nanoseconds) is field 2 of its /proc/thread-self/schedstat,
 * opened once and re-read at offset 0 into a buffer allocated once. Its
 * time on a CPU is the same counter as field 1 (sum_exec_runtime), but
 * read through the thread's CPU clock (ThreadMXBean, clock_gettime of
 * CLOCK_THREAD_CPUTIME_ID): field 1 of a running thread is only brought up
 * to date at a scheduler tick or switch, so a run shorter than a tick read
 * 0 on-CPU there (measured: 250 SQLite operations of 2 µs), where the clock
 * adds the time since. Not for use by other threads.
 */
final class SchedStat implements AutoCloseable {
    private final FileChannel file;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(128);
    private final String tid;
    private long cpu, runq, parsed;

    private SchedStat(FileChannel file, String tid) {
        this.file = file;
        this.tid = tid;
    }

    /**
     * Opens the calling thread's schedstat and reads it once; returns null
     * where the kernel does not expose it.
     */
    static SchedStat open() {
        try {
            Path self = Path.of("/proc/thread-self").toRealPath();
            FileChannel f = FileChannel.open(self.resolve("schedstat"), StandardOpenOption.READ);
            SchedStat s = new SchedStat(f, self.getFileName().toString());
            if (!s.read()) { // also the first read, which sets the channel up
                s.close();
                return null;
            }
            return s;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The thread's id in /proc/self/task. */
    String tid() {
        return tid;
    }

    /** The thread's CPU time at the last read, in nanoseconds (its CPU clock). */
    long cpu() {
        return cpu;
    }

    /** The thread's run-queue delay at the last read, in nanoseconds. */
    long runq() {
        return runq;
    }

    /**
     * Reads the run-queue delay and the CPU time again; false when the file
     * cannot be read or parsed, or the JVM has no thread CPU clock.
     */
    boolean read() {
        buf.clear();
        try {
            while (buf.hasRemaining()) {
                if (file.read(buf, buf.position()) <= 0) {
                    break;
                }
            }
        } catch (IOException e) {
            return false;
        }
        int end = buf.position();
        int i = field(0, end); // sum_exec_runtime: skipped, see above
        if (i < 0) {
            return false;
        }
        if (field(i, end) < 0) {
            return false;
        }
        long clock = Allocations.cpuNanos();
        if (clock <= 0) {
            return false;
        }
        cpu = clock;
        runq = parsed;
        return true;
    }

    /**
     * Parses the decimal field at i of the buffer, followed by a space, into
     * parsed; returns the index after the space, or -1.
     */
    private int field(int i, int end) {
        long v = 0;
        int start = i;
        while (i < end && buf.get(i) >= '0' && buf.get(i) <= '9') {
            v = v * 10 + (buf.get(i) - '0');
            i++;
        }
        if (i == start || i >= end || buf.get(i) != ' ') {
            return -1;
        }
        parsed = v;
        return i + 1;
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException e) {
            // a read-only file: nothing was lost
        }
    }
}
