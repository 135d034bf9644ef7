package dev.sqlbench.jdbc;

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
}
