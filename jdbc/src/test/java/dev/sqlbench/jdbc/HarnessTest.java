package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HarnessTest {
    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    @Test
    void startAndFinishAreTimedOncePerRunAndOffTheClockInTheOtherSlices() throws Exception {
        // Start and finish each spin 50 ms; the operations do nothing. A
        // whole run times both, a warm-up brackets its own pair, and a
        // middle slice of a run in slices times neither.
        List<String> log = new java.util.ArrayList<>();
        long d = 50_000_000L;
        Workload.Run r = Workload.Run.timed(() -> {
            log.add("start");
            spin(d);
        }, i -> log.add(Integer.toString(i)), () -> {
            log.add("finish");
            spin(d);
        }, () -> { });
        Harness.warm(r, 2);
        Sample whole = Harness.measure(r, 2, 2, Harness.newHistogram());
        assertEquals(List.of("start", "0", "1", "finish", "start", "2", "3", "finish"), log);
        assertTrue(whole.elapsedNanos() >= 2 * d, "whole run: elapsed " + whole.elapsedNanos());
        log.clear();
        Sample middle = Harness.measure(r, 0, 2, Harness.newHistogram(), null, true, true);
        assertEquals(List.of("start", "0", "1", "finish"), log);
        assertTrue(middle.elapsedNanos() < d, "middle slice: elapsed " + middle.elapsedNanos());
    }

    @Test
    void aParallelRunsHistogramHoldsEveryClientsLatencies() throws Exception {
        // Client 0 spins for 20 µs an operation, client 1 for 200 µs: both
        // kinds of latency must reach the run's one histogram, about one in
        // SAMPLE_GAP operations of each client (client 1 gets a few hundred
        // of the 4,000, whichever thread starts first).
        Workload.Op fast = i -> spin(20_000);
        Workload.Op slow = i -> spin(200_000);
        Workload.Run r = new Workload.Run(null, List.of(fast, slow), null, null, () -> { }, 0);
        Histogram h = Harness.newHistogram();
        Sample s = Harness.measure(r, 0, 4000, h);
        Histogram got = s.latency();
        assertTrue(got == h, "the run's histogram is the one passed in");
        long n = got.getTotalCount();
        assertTrue(n >= 4000 / Harness.SAMPLE_GAP / 2, "sampled " + n);
        assertTrue(got.getMinValue() < 100_000, "fastest " + got.getMinValue());
        assertTrue(got.getMaxValue() >= 200_000, "slowest " + got.getMaxValue());
    }

    @Test
    void pausedGenerationIsOffTheClockTheLatenciesAndEveryPartOfTheTime() throws Exception {
        // Every operation "generates" for 2 ms of spinning with the clock
        // paused and does nothing on it. Counted, the pauses would be the
        // run's whole time, every sampled latency and all of its CPU; the
        // checks hold however busy the machine is.
        Timer t = new Timer();
        Workload.Op op = i -> {
            t.stop();
            spin(2_000_000);
            t.start();
        };
        Workload.Run r = new Workload.Run(op, null, null, null, () -> { }, 0, t);
        TimeShare probe = new TimeShare(0);
        long w0 = System.nanoTime();
        Sample s = Harness.measure(r, 0, 200, Harness.newHistogram(), probe);
        long wall = System.nanoTime() - w0;
        assertTrue(t.paused() >= 200 * 2_000_000L, "paused " + t.paused());
        assertTrue(s.elapsedNanos() <= wall - t.paused(),
                "elapsed " + s.elapsedNanos() + " of " + wall + ", paused " + t.paused());
        assertTrue(s.latency().getValueAtPercentile(50) < 100_000,
                "median latency " + s.latency().getValueAtPercentile(50));
        // The parts add up to the paused-less ns/op, and none holds the
        // 2 ms an operation paused (on a busy machine the little the clock
        // runs can still wait for a CPU: hundreds of µs an operation).
        Map<String, Double> u = TimeShareTest.split(s, probe);
        for (String k : List.of("oncpu-ns/op", "runq-ns/op", "blocked-ns/op")) {
            assertTrue(u.get(k) < 1_000_000, k + " of " + u);
        }
    }

    @Test
    void aParallelRunsStartAndFinishAreTheCoordinatorsTimeNotBlocked() throws Exception {
        // The start and finish spin 80 ms each on the coordinating thread
        // while no client runs; the clients do nothing. Each client's share
        // of that wall time is the coordinator's CPU (or its wait for one),
        // not blocked time, and it is not the runner's background CPU.
        long d = 80_000_000L;
        Workload.Op none = i -> { };
        Workload.Run r = new Workload.Run(null, List.of(none, none), null, () -> spin(d), () -> { }, 0, null, 0, null,
                () -> spin(d));
        // The JIT compiles the spin and the harness in a run of its own
        // first: in a fresh JVM that took 51 ms of background CPU (CI).
        // Counted as background, the coordinator's 160 ms would be in every
        // run; the JIT and the collector are not: the least of three runs.
        Harness.measure(r, 0, 10, Harness.newHistogram(), new TimeShare(0));
        double least = Double.MAX_VALUE;
        String seen = "";
        for (int k = 0; k < 3; k++) {
            TimeShare probe = new TimeShare(0);
            Sample s = Harness.measure(r, 0, 10, Harness.newHistogram(), probe);
            Map<String, Double> u = TimeShareTest.split(s, probe);
            double n = s.n();
            double busy = (u.get("oncpu-ns/op") + u.get("runq-ns/op")) * n, blocked = u.get("blocked-ns/op") * n;
            assertTrue(busy >= 2 * d * 0.8 && blocked < d / 2.0,
                    "busy " + busy + " ns, blocked " + blocked + " ns of " + u);
            least = Math.min(least, u.get("bg-cpu-ns/op") * n);
            seen += " " + u;
        }
        assertTrue(least < d / 2.0, "background at least " + least + " ns of" + seen);
    }

    @Test
    void theProbesReadingsAreNotInTheRunsBytes() throws Exception {
        // A probe that reads this JVM as its "server" allocates tens of KB
        // a reading (every thread's /proc files); none of it may reach the
        // run's B/op. The fewest bytes of a few runs: the JIT settles.
        Workload.Run r = new Workload.Run(i -> { });
        int pid = (int) ProcessHandle.current().pid();
        long plain = Long.MAX_VALUE, probed = Long.MAX_VALUE;
        for (int k = 0; k < 5; k++) {
            plain = Math.min(plain, Harness.measure(r, 0, 1000, Harness.newHistogram()).bytes());
            probed = Math.min(probed, Harness.measure(r, 0, 1000, Harness.newHistogram(), new TimeShare(pid)).bytes());
        }
        assertTrue(probed - plain < 256, "bytes of 1,000 no-op operations: " + plain + " plain, " + probed + " probed");
    }

    @Test
    void aParallelRunCannotPause() {
        Workload.Op op = i -> { };
        Workload.Run r = new Workload.Run(null, List.of(op, op), null, null, () -> { }, 0, new Timer());
        assertThrows(IllegalArgumentException.class, () -> Harness.measure(r, 0, 10, Harness.newHistogram()));
    }
}
