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
 * Where a run's time goes, the twin of the Go runner's decomposition: the
 * JVM's CPU time (every thread: the clients, the JIT, the collector) and
 * the server's (every thread of the server process and its descendants),
 * read from /proc right around the timed region, never per operation; the
 * rest of the wall time is waiting. Threads are read one by one
 * (schedstat, nanoseconds) so that a short slice is not lost in the clock
 * tick of /proc/PID/stat. Threads born inside the run are not read there:
 * a parallel run's client threads add their own CPU time instead
 * (Sample.parallelCpuNanos); a JVM thread started during the run (a new
 * compiler thread) is missed.
 */
public final class TimeShare {
    private final Path self = Path.of("/proc/self/task");
    private final int serverPid;
    private Map<String, Long> client0;
    private long server0 = -1, server1 = -1;
    private long client = -1;

    /** A probe of this JVM and, when serverPid is above 0, of that server. */
    public TimeShare(int serverPid) {
        this.serverPid = serverPid;
    }

    /**
     * Reads both sides before the timed region. The calling thread is read
     * again last, so that the reading itself is not counted as the run's.
     */
    public void start() {
        server0 = serverPid > 0 ? tree(serverPid) : -1;
        client0 = threads(self);
        String me = threadId();
        Long now = me == null ? null : schedstat(self.resolve(me));
        if (client0 != null && now != null) {
            client0.put(me, now);
        }
    }

    /**
     * Reads both sides after the timed region, the calling thread first for
     * the same reason.
     */
    public void stop() {
        String me = threadId();
        Long mine = me == null ? null : schedstat(self.resolve(me));
        Map<String, Long> client1 = threads(self);
        if (client1 != null && mine != null) {
            client1.put(me, mine);
        }
        if (client0 != null && client1 != null) {
            long sum = 0;
            for (Map.Entry<String, Long> e : client1.entrySet()) {
                // Only threads that were there before: a parallel run's
                // client threads, which may linger in /proc after they were
                // joined, are counted by their own clocks (extraClient).
                Long before = client0.get(e.getKey());
                if (before != null) {
                    sum += e.getValue() - before;
                }
            }
            client = sum;
        }
        server1 = server0 >= 0 ? tree(serverPid) : -1;
    }

    /**
     * Takes nanos off the client's CPU time: the run's paused regions, whose
     * wall time stands for the CPU time of the generator they ran.
     */
    public void discount(long nanos) {
        if (client >= 0) {
            client = Math.max(client - nanos, 0);
        }
    }

    /**
     * Returns the units to append to the run's result line: client-cpu-ns/op,
     * and server-cpu-ns/op and wait-ns/op when the server was read, or
     * wait-ns/op alone when serverless (SQLite). extraClient is CPU of
     * threads that lived only inside the run.
     */
    public String units(Sample s, boolean serverless) {
        if (client < 0) {
            return "";
        }
        double n = s.n();
        double c = (client + extraClient(s)) / n;
        StringBuilder b = new StringBuilder();
        b.append(' ').append(ResultLine.number(c)).append(" client-cpu-ns/op");
        double srv = 0;
        boolean known = server0 >= 0 && server1 >= 0;
        if (known) {
            srv = (server1 - server0) / n;
            b.append(' ').append(ResultLine.number(srv)).append(" server-cpu-ns/op");
        }
        if (known || serverless) {
            b.append(' ').append(ResultLine.number(s.nsPerOp() - c - srv)).append(" wait-ns/op");
        }
        return b.toString();
    }

    /** The client threads of a parallel run are gone when stop reads. */
    private static long extraClient(Sample s) {
        return s.parallelCpuNanos();
    }

    /** Returns the calling thread's id in /proc/self/task, or null. */
    private static String threadId() {
        try {
            return Path.of("/proc/thread-self").toRealPath().getFileName().toString();
        } catch (IOException e) {
            return null;
        }
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
