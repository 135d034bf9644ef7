package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimeShareTest {
    /** Spins until the calling thread has used nanos of CPU. */
    static void burn(long nanos) {
        long end = Allocations.cpuNanos() + nanos;
        while (Allocations.cpuNanos() < end) {
            Thread.onSpinWait();
        }
    }

    /** The units of a result line's tail (" 1 a-ns/op 2 b-ns/op") by name. */
    static Map<String, Double> units(String units) {
        String[] f = units.strip().split(" ");
        Map<String, Double> out = new HashMap<>();
        for (int i = 1; i < f.length; i += 2) {
            assertNull(out.put(f[i], Double.parseDouble(f[i - 1])), "unit twice in " + units);
        }
        return out;
    }

    /**
     * Checks the decomposition's contract on a probed sample and returns its
     * units: the three parts there, none negative, adding up to ns/op
     * within 1%; bg-cpu there and not negative; no server without one.
     */
    static Map<String, Double> split(Sample s, TimeShare probe) {
        String line = probe.units(s);
        Map<String, Double> u = units(line);
        for (String k : List.of("oncpu-ns/op", "runq-ns/op", "blocked-ns/op", "bg-cpu-ns/op")) {
            assertTrue(u.containsKey(k) && u.get(k) >= 0, k + " in " + line);
        }
        double sum = u.get("oncpu-ns/op") + u.get("runq-ns/op") + u.get("blocked-ns/op");
        assertEquals(s.nsPerOp(), sum, s.nsPerOp() * 0.01, "the parts of ns/op " + s.nsPerOp() + ":" + line);
        assertFalse(u.containsKey("server-cpu-ns/op"), line);
        assertFalse(line.contains("client-cpu") || line.contains("wait-ns"), line);
        return u;
    }

    private static Sample probed(Workload.Run r, int n, TimeShare probe) throws Exception {
        return Harness.measure(r, 0, n, Harness.newHistogram(), probe);
    }

    @Test
    void theConstructionRulesHold() {
        // No pause, room to spare: blocked is the rest.
        TimeSplit t = TimeSplit.of(List.of(new TimeSplit.Reading("1", 300, 100)), 1000, 0);
        assertEquals(List.of(300.0, 100.0, 600.0), List.of(t.oncpu(), t.runq(), t.blocked()));
        // A pause of 350 comes off the CPU (300) first, then 50 off the run queue.
        t = TimeSplit.of(List.of(new TimeSplit.Reading("1", 300, 100)), 1000, 350);
        assertEquals(List.of(0.0, 50.0, 950.0), List.of(t.oncpu(), t.runq(), t.blocked()));
        // A pause longer than both: the rest comes off blocked, which is
        // what elapsed (the pause already taken off it) leaves.
        t = TimeSplit.of(List.of(new TimeSplit.Reading("1", 300, 100)), 1000, 500);
        assertEquals(List.of(0.0, 0.0, 1000.0), List.of(t.oncpu(), t.runq(), t.blocked()));
        // CPU and run queue over elapsed (clocks a few µs apart): scaled to fill it.
        t = TimeSplit.of(List.of(new TimeSplit.Reading("1", 900, 300)), 1000, 0);
        assertEquals(750.0, t.oncpu(), 1e-9);
        assertEquals(250.0, t.runq(), 1e-9);
        assertEquals(0.0, t.blocked());
        // Two client threads: the mean thread's, each against the whole elapsed time.
        t = TimeSplit.of(List.of(new TimeSplit.Reading("1", 800, 0), new TimeSplit.Reading("2", 400, 200)), 1000, 0);
        assertEquals(List.of(600.0, 100.0, 300.0), List.of(t.oncpu(), t.runq(), t.blocked()));
        assertEquals(1200, t.threadCpu());
        assertEquals(List.of("1", "2"), t.tids());
        assertNull(TimeSplit.of(List.of(), 1000, 0));
        // Scaled, the parts never round below 0 or past elapsed (a run
        // queue of -1.5e-11 ns/op was written once).
        java.util.SplittableRandom rng = new java.util.SplittableRandom(22);
        for (int k = 0; k < 100_000; k++) {
            long e = 1 + rng.nextLong(1L << 40);
            long cpu = e + rng.nextLong(1 + e / 100);
            long rq = rng.nextInt(4) == 0 ? 0 : rng.nextLong(1 + e / 10);
            t = TimeSplit.of(List.of(new TimeSplit.Reading("1", cpu, rq)), e, 0);
            assertTrue(t.oncpu() >= 0 && t.runq() >= 0 && t.blocked() == 0 && t.oncpu() + t.runq() == e,
                    e + " " + cpu + " " + rq + ": " + t);
        }
    }

    @Test
    void schedStatReadsThisThreadWithoutAllocating() {
        SchedStat s = SchedStat.open();
        assertNotNull(s, "no /proc/thread-self/schedstat");
        try (s) {
            long cpu0 = s.cpu();
            burn(20_000_000);
            long b0 = Allocations.current();
            for (int i = 0; i < 1000; i++) {
                assertTrue(s.read());
            }
            long bytes = Allocations.current() - b0;
            assertEquals(0, bytes, "bytes allocated by 1,000 readings");
            assertTrue(s.cpu() - cpu0 >= 19_000_000, "CPU " + (s.cpu() - cpu0) + " ns after burning 20 ms");
            assertTrue(s.runq() >= 0);
        }
    }

    @Test
    void aCpuBoundRunIsOnCpu() throws Exception {
        long per = 200_000;
        Workload.Run r = new Workload.Run(i -> burn(per), null, null, null, () -> { }, 0);
        for (int i = 0; i < 3; i++) { // the JIT compiles the loop: let it settle
            probed(r, 1000, new TimeShare(0));
        }
        TimeShare probe = new TimeShare(0);
        Sample s = probed(r, 1000, probe);
        Map<String, Double> u = split(s, probe);
        // Each operation burns per of this thread's CPU, however busy the
        // machine; waiting for a CPU is runq, not blocked.
        assertEquals(per, u.get("oncpu-ns/op"), per * 0.1, "oncpu of " + u);
        assertTrue(u.get("blocked-ns/op") < 0.1 * s.nsPerOp(), "blocked of " + u + " at " + s.nsPerOp() + " ns/op");
        // The timing thread is not the background: the JIT and the
        // collector, at rest after the warm-up runs, use a fraction of it.
        assertTrue(u.get("bg-cpu-ns/op") < 0.3 * per, "bg-cpu of " + u);
    }

    @Test
    void aRunShorterThanASchedulerTickIsOnCpuToo() throws Exception {
        // 200 operations spinning 2 µs on the wall clock: the run is over
        // before a tick brings schedstat's field 1 of the running thread up
        // to date, which read 0 on-CPU (reading the thread's CPU clock, as
        // burn does, also updates it: this loop does not). Spinning, the
        // thread is on a CPU or waiting for one.
        long per = 2_000;
        Workload.Run r = new Workload.Run(i -> {
            long end = System.nanoTime() + per;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        });
        for (int i = 0; i < 3; i++) {
            probed(r, 200, new TimeShare(0));
        }
        for (int k = 0; k < 5; k++) {
            TimeShare probe = new TimeShare(0);
            Sample s = probed(r, 200, probe);
            Map<String, Double> u = split(s, probe);
            assertTrue(u.get("oncpu-ns/op") + u.get("runq-ns/op") >= 0.9 * per,
                    "oncpu of " + u + " at " + s.nsPerOp() + " ns/op");
        }
    }

    @Test
    void aSleepingRunIsBlocked() throws Exception {
        Workload.Run r = new Workload.Run(i -> Thread.sleep(2), null, null, null, () -> { }, 0);
        probed(r, 10, new TimeShare(0));
        TimeShare probe = new TimeShare(0);
        Sample s = probed(r, 100, probe);
        Map<String, Double> u = split(s, probe);
        // Each operation sleeps 2 ms at least; on a busy machine the wake-up
        // may then wait for a CPU, which is run queue, not blocked.
        assertTrue(s.nsPerOp() >= 2_000_000, "ns/op " + s.nsPerOp());
        assertTrue(u.get("blocked-ns/op") > 0.95 * 2_000_000, "blocked of " + u + " at " + s.nsPerOp() + " ns/op");
        assertTrue(u.get("oncpu-ns/op") < 0.1 * s.nsPerOp(), "oncpu of " + u);
    }

    @Test
    void anotherThreadsCpuIsBackground() throws Exception {
        // A thread of the JVM, alive before and after the run, burns 300 ms
        // of CPU inside it while the timed thread sleeps: all of that is
        // background, once; the JIT and the collector add their own (up to
        // 84 ms seen here in a JVM that had just run the other tests).
        long burned = 300_000_000;
        Workload.Run sleeping = new Workload.Run(i -> Thread.sleep(5));
        probed(sleeping, 10, new TimeShare(0));
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        long[] cpu = new long[1];
        Thread bg = new Thread(() -> {
            try {
                go.await();
                long c0 = Allocations.cpuNanos();
                burn(burned);
                cpu[0] = Allocations.cpuNanos() - c0;
                done.countDown();
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        bg.start();
        Workload.Run r = new Workload.Run(i -> {
            if (i == 0) {
                go.countDown();
            }
            Thread.sleep(5);
            if (i == 59) {
                done.await(); // still inside the timed region
            }
        });
        TimeShare probe = new TimeShare(0);
        Sample s;
        try {
            s = probed(r, 60, probe);
        } finally {
            release.countDown();
            bg.join();
        }
        Map<String, Double> u = split(s, probe);
        double bgCpu = u.get("bg-cpu-ns/op") * s.n();
        assertTrue(bgCpu > 0.95 * cpu[0] && bgCpu < 1.5 * cpu[0],
                "background " + bgCpu + " ns, the thread burned " + cpu[0]);
        assertTrue(u.get("oncpu-ns/op") < 0.1 * s.nsPerOp(), "oncpu of " + u);
    }

    @Test
    void aParallelRunSplitsTheMeanClientThread() throws Exception {
        long per = 100_000;
        Workload.Op op = i -> burn(per);
        Workload.Run r = new Workload.Run(null, List.of(op, op), null, null, () -> { }, 0);
        for (int i = 0; i < 3; i++) {
            probed(r, 1000, new TimeShare(0));
        }
        TimeShare probe = new TimeShare(0);
        Sample s = probed(r, 3000, probe);
        Map<String, Double> u = split(s, probe);
        // Two threads burn per each operation, half of the operations each:
        // the mean thread's CPU is per/2 an operation. Not counting the
        // clients gives 0, not dividing by W per, one client per/4.
        assertEquals(per / 2.0, u.get("oncpu-ns/op"), per * 0.05, "oncpu of " + u);
        assertTrue(u.get("bg-cpu-ns/op") < 0.3 * per, "bg-cpu of " + u);
    }

    /** Runs a command to its end; its output, or an assertion error that says why not. */
    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
        return out.strip();
    }

    /**
     * Returns the run-queue time per CPU time of a probed CPU-bound run:
     * with k other busy tasks sharing its CPU fairly, about k.
     */
    private static double runqPerCpu(Workload.Run r) throws Exception {
        TimeShare probe = new TimeShare(0);
        Sample s = probed(r, 1000, probe);
        Map<String, Double> u = split(s, probe);
        return u.get("runq-ns/op") / u.get("oncpu-ns/op");
    }

    @Test
    void competingProcessesOnTheSameCpuAreRunQueue() throws Exception {
        // This thread is pinned to one CPU (taskset on its thread id) and
        // runs CPU-bound operations (100 ms of CPU a run), alone or with two
        // busy loops pinned to the same CPU in child processes (bounded, and
        // killed after each run): the scheduler shares the CPU, so the
        // loaded run waits in the run queue about twice as long as it runs,
        // on top of what other tenants' load (on both runs) adds. Idle and
        // loaded runs alternate.
        SchedStat me = SchedStat.open();
        assertNotNull(me, "no /proc/thread-self/schedstat");
        me.close();
        String tid = me.tid();
        String mask = run("taskset", "-p", tid);
        mask = mask.substring(mask.lastIndexOf(' ') + 1);
        String cpu = Integer.toString(Runtime.getRuntime().availableProcessors() - 1);
        Workload.Run r = new Workload.Run(i -> burn(100_000));
        int rounds = 5;
        double[] idle = new double[rounds], loaded = new double[rounds], diff = new double[rounds];
        run("taskset", "-pc", cpu, tid);
        try {
            runqPerCpu(r); // the JIT compiles the loop
            for (int k = 0; k < rounds; k++) {
                idle[k] = runqPerCpu(r);
                List<Process> busy = new java.util.ArrayList<>();
                try {
                    for (int b = 0; b < 2; b++) {
                        // taskset execs the shell: one process, 5 million
                        // loops (a few seconds of CPU) if not killed first.
                        busy.add(new ProcessBuilder("taskset", "-c", cpu, "sh", "-c",
                                "i=0; while [ $i -lt 5000000 ]; do i=$((i+1)); done")
                                .redirectErrorStream(true).start());
                    }
                    Thread.sleep(50); // they have started spinning
                    for (Process p : busy) {
                        assertTrue(p.isAlive(), "a busy loop ended");
                    }
                    loaded[k] = runqPerCpu(r);
                } finally {
                    for (Process p : busy) {
                        p.descendants().forEach(ProcessHandle::destroyForcibly);
                        p.destroyForcibly();
                        p.waitFor();
                    }
                }
                diff[k] = loaded[k] - idle[k];
            }
        } finally {
            run("taskset", "-p", mask, tid);
        }
        java.util.Arrays.sort(diff);
        // Measured here: with the machine otherwise quiet, runq/oncpu
        // 0.00-0.25 idle and 1.97-2.20 loaded; at load average 7-8 from
        // other tenants, 0.02-2.5 idle, 2.7-7.1 loaded, median increases
        // 2.6-2.9.
        assertTrue(diff[rounds / 2] > 0.5, "median increase of runq/oncpu " + diff[rounds / 2]
                + " with two busy loops on the CPU (idle "
                + java.util.Arrays.toString(idle) + ", loaded " + java.util.Arrays.toString(loaded) + ")");
    }

    @Test
    void theServerTreeOfThisProcessIsRead() {
        long pid = ProcessHandle.current().pid();
        long before = TimeShare.tree((int) pid);
        burn(50_000_000);
        long after = TimeShare.tree((int) pid);
        assertTrue(before > 0 && after - before >= 45_000_000, before + " then " + after);
        assertEquals(-1, TimeShare.tree(Integer.MAX_VALUE));
    }

    @Test
    void aServersCpuIsWrittenWhenRead() throws Exception {
        // This JVM as the "server": its CPU is read and written beside the split.
        TimeShare probe = new TimeShare((int) ProcessHandle.current().pid());
        Sample s = probed(new Workload.Run(i -> burn(100_000)), 100, probe);
        Map<String, Double> u = units(probe.units(s));
        assertTrue(u.get("server-cpu-ns/op") >= 0.9 * 100_000, "server-cpu of " + u);
        assertTrue(u.containsKey("oncpu-ns/op"), u.toString());
    }
}
