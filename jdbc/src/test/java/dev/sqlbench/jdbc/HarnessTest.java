package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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
    void pausedGenerationIsOffTheClockTheLatenciesAndTheClientCpu() throws Exception {
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
        assertTrue(s.elapsedNanos() <= wall - t.paused(), "elapsed " + s.elapsedNanos() + " of " + wall + ", paused " + t.paused());
        assertTrue(s.latency().getValueAtPercentile(50) < 100_000, "median latency " + s.latency().getValueAtPercentile(50));
        String units = probe.units(s, true);
        double client = Double.parseDouble(units.strip().split(" ")[0]);
        assertTrue(client < 500_000, units);
    }

    @Test
    void aParallelRunCannotPause() {
        Workload.Op op = i -> { };
        Workload.Run r = new Workload.Run(null, List.of(op, op), null, null, () -> { }, 0, new Timer());
        assertThrows(IllegalArgumentException.class, () -> Harness.measure(r, 0, 10, Harness.newHistogram()));
    }
}
