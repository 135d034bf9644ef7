package dev.sqlbench.jdbc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where a run's time goes, the twin of the Go runner's decomposition (see
 * docs/where-time-goes.md). ns/op is split by the timing thread(s)' own
 * schedstat (the sample's TimeSplit, read by the harness) into
 * oncpu-ns/op, runq-ns/op and blocked-ns/op; beside them, extra work done
 * in parallel and not a part of ns/op: bg-cpu-ns/op, the CPU time of the
 * JVM's other threads (the JIT, the collector, a driver's own threads, the
 * thread that starts and joins a parallel run's clients), and
 * server-cpu-ns/op, the server's (every thread of the server process and
 * its descendants). This probe reads the JVM's and the server's threads
 * from /proc right around the timed region, never per operation, one by
 * one (schedstat, nanoseconds) so that a short run is not lost in the
 * clock tick of /proc/PID/stat. A JVM thread born inside the run counts
 * from its birth; one that ended inside the run is missed.
 */
public final class TimeShare {
    private final Path self = Path.of("/proc/self/task");
    private final int serverPid;
    private Map<String, Long> jvm0, jvm1;
    private long server0 = -1, server1 = -1;

    /** A probe of this JVM and, when serverPid is above 0, of that server. */
    public TimeShare(int serverPid) {
        this.serverPid = serverPid;
    }

    /** Reads the server, then the JVM's threads, before the timed region. */
    public void start() {
        server0 = serverPid > 0 ? tree(serverPid) : -1;
        jvm0 = threads(self);
    }

    /** Reads the JVM's threads, then the server, after the timed region. */
    public void stop() {
        jvm1 = threads(self);
        server1 = server0 >= 0 ? tree(serverPid) : -1;
    }

    /**
     * Returns the units to append to the result line of s: oncpu-ns/op,
     * runq-ns/op and blocked-ns/op when s has the timing threads' split
     * (they add up to ns/op), bg-cpu-ns/op when the JVM's threads were read
     * too, and server-cpu-ns/op when the server was. A unit whose reading
     * is missing is left out, never written as 0.
     */
    public String units(Sample s) {
        double n = s.n();
        StringBuilder b = new StringBuilder();
        TimeSplit t = s.time();
        if (t != null) {
            unit(b, t.oncpu() / n, "oncpu-ns/op");
            unit(b, t.runq() / n, "runq-ns/op");
            unit(b, t.blocked() / n, "blocked-ns/op");
            if (jvm0 != null && jvm1 != null) {
                unit(b, background(t) / n, "bg-cpu-ns/op");
            }
        }
        if (server0 >= 0 && server1 >= 0) {
            unit(b, (server1 - server0) / n, "server-cpu-ns/op");
        }
        return b.toString();
    }

    private static void unit(StringBuilder b, double v, String unit) {
        b.append(' ').append(ResultLine.number(v)).append(' ').append(unit);
    }

    /**
     * Returns the CPU time of the JVM's threads but the timing ones during
     * the run: each thread's schedstat at stop less its reading at start
     * (0 for a thread born in between).
     */
    private long background(TimeSplit t) {
        long sum = 0;
        for (Map.Entry<String, Long> e : jvm1.entrySet()) {
            if (t.tids().contains(e.getKey())) {
                continue;
            }
            sum += Math.max(e.getValue() - jvm0.getOrDefault(e.getKey(), 0L), 0);
        }
        return sum;
    }

    /** Returns one thread's run time in ns, or null when it is gone. */
    private static Long schedstat(Path task) {
        try {
            return Long.parseLong(Files.readString(task.resolve("schedstat")).strip().split(" ")[0]);
        } catch (IOException | NumberFormatException gone) {
            return null;
        }
    }

    /** Returns each live thread's run time in ns by thread id, or null. */
    private static Map<String, Long> threads(Path tasks) {
        Map<String, Long> out = new HashMap<>();
        try (Stream<Path> ts = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) ts::iterator) {
                Long ns = schedstat(t);
                if (ns != null) { // else a thread that has just exited
                    out.put(t.getFileName().toString(), ns);
                }
            }
        } catch (IOException e) {
            return null;
        }
        return out;
    }

    /**
     * Returns the CPU time of pid and its descendants, each live thread's
     * run time plus the children each process has reaped (cutime and cstime,
     * in clock ticks of 10 ms), or -1 when pid cannot be read.
     */
    static long tree(int pid) {
        long total = 0;
        ArrayDeque<Integer> todo = new ArrayDeque<>();
        todo.push(pid);
        while (!todo.isEmpty()) {
            int p = todo.pop();
            Path dir = Path.of("/proc", Integer.toString(p));
            try {
                String stat = Files.readString(dir.resolve("stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                total += (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10_000_000L;
                Map<String, Long> ts = threads(dir.resolve("task"));
                if (ts == null) {
                    throw new NoSuchFileException(dir.toString());
                }
                for (Map.Entry<String, Long> e : ts.entrySet()) {
                    total += e.getValue();
                    try {
                        for (String k : Files.readString(dir.resolve("task").resolve(e.getKey()).resolve("children"))
                                .strip().split(" ")) {
                            if (!k.isEmpty()) {
                                todo.push(Integer.parseInt(k));
                            }
                        }
                    } catch (IOException gone) {
                        // the thread has exited
                    }
                }
            } catch (IOException | RuntimeException e) {
                if (p == pid) {
                    return -1;
                }
            }
        }
        return total;
    }
}
