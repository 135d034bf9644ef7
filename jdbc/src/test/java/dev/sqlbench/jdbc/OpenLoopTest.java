package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The open-loop scheduler's arithmetic and a run of it, as Go's bench openloop tests. */
class OpenLoopTest {
    @Test
    void theArrivalsArePoissonAtTheRate() {
        int n = 200_000;
        OpenLoop.Schedule s = new OpenLoop.Schedule(2000, 1, 0, n);
        long prev = 0;
        double sum = 0, sumSq = 0;
        for (int i = 0; i < n; i++) {
            long[] c = s.claim();
            assertEquals(i, c[0], "operations in order");
            long gap = c[1] - prev;
            assertTrue(gap >= 0, "arrivals never go back");
            sum += gap;
            sumSq += (double) gap * gap;
            prev = c[1];
        }
        assertNull(s.claim(), "no arrival past the run's operations");
        double mean = sum / n, sd = Math.sqrt(sumSq / n - mean * mean);
        // exponential gaps: mean 1/rate (500 µs), standard deviation equal to the mean
        assertEquals(500_000, mean, 500_000 * 0.01);
        assertEquals(mean, sd, mean * 0.02);
    }

    @Test
    void theScheduleRepeatsWithItsSeed() {
        OpenLoop.Schedule a = new OpenLoop.Schedule(100, 7, 5, 10), b = new OpenLoop.Schedule(100, 7, 5, 10);
        OpenLoop.Schedule c = new OpenLoop.Schedule(100, 8, 5, 10);
        long[] x = a.claim(), y = b.claim(), z = c.claim();
        assertEquals(5, x[0]);
        assertEquals(x[1], y[1]);
        assertNotEquals(x[1], z[1]);
    }

    @Test
    void theRecorderCountsLagLateAndSkipped() {
        Histogram h = Harness.newHistogram();
        OpenLoop.Recorder r = new OpenLoop.Recorder(h, 10_000_000, true);
        r.done(1_000_000, 5_000_000);
        r.done(3_000_000, 15_000_000); // late: over the 10 ms limit
        r.skip();
        OpenLoop.Interval iv = r.close(1_000_000_000);
        assertEquals(2, iv.ops());
        assertEquals(1, iv.late());
        assertEquals(1, iv.skipped());
        assertEquals(2_000_000, iv.meanLag());
        assertEquals(1_000_000_000, iv.length());
        assertEquals(15_000_000, iv.max(), 15_000_000 * 0.001); // the histogram keeps three digits
        r.done(0, 1_000_000);
        // a last interval under a tenth of one joins the one before
        assertNull(r.flush(1_050_000_000, 1_000_000_000));
        OpenLoop.Stats st = r.stats;
        assertEquals(1, st.series.size());
        assertEquals(3, st.series.get(0).ops());
        assertEquals(1_050_000_000, st.series.get(0).end());
        assertEquals(3, st.done);
        assertEquals(1, st.late);
        assertEquals(1, st.skipped);
        assertEquals(3_000_000, st.maxLag);
        assertEquals(4_000_000 / 3, st.meanLag());
        assertEquals(3, h.getTotalCount());
        assertEquals("t=1.05s ops/s=2.9 p50=5.001ms p99=15.008ms max=15.008ms lag=2ms late=1 skipped=1",
                st.series.get(0).toString());
    }

    @Test
    void durationsAreWrittenAsGosAre() {
        assertEquals("0s", GoDuration.format(0));
        assertEquals("12ns", GoDuration.format(12));
        assertEquals("974µs", GoDuration.format(974_000));
        assertEquals("1.5µs", GoDuration.format(1_500));
        assertEquals("9.806ms", GoDuration.format(9_806_000));
        assertEquals("1.106248s", GoDuration.format(1_106_248_000));
        assertEquals("2m3.5s", GoDuration.format(123_500_000_000L));
        assertEquals("1h0m0s", GoDuration.format(3_600_000_000_000L));
        assertEquals("-2ms", GoDuration.format(-2_000_000));
        assertEquals(2_001_000, GoDuration.round(2_000_500, 1_000));
        assertEquals(2_000_000, GoDuration.round(2_000_499, 1_000));
    }

    /**
     * One client at 400/s whose 20th operation stalls 100 ms: every
     * operation scheduled during the stall is late from its schedule (the
     * open loop sees the stall in ~40 operations, not one), and a run at a
     * rate it keeps lasts n/rate.
     */
    @Test
    void aStallShowsInTheLatencyOfWhatWasScheduledDuringIt() throws Exception {
        Histogram h = Harness.newHistogram();
        List<OpenLoop.Interval> ivs = new ArrayList<>();
        OpenLoop ol = new OpenLoop(400, 0, 100_000_000, 1);
        long t0 = System.nanoTime();
        OpenLoop.Result res = ol.run(List.of(i -> {
            if (i == 20) {
                Thread.sleep(100);
            }
        }), 0, 200, h, 0, ivs::add, null);
        double secs = (System.nanoTime() - t0) / 1e9;
        assertEquals(200, res.arrivals());
        assertEquals(200, res.stats().done);
        assertEquals(200, h.getTotalCount(), "every latency recorded, none sampled");
        assertTrue(secs > 0.3 && secs < 2, "200 arrivals at 400/s took " + secs + " s");
        assertTrue(h.getValueAtPercentile(90) > 5_000_000, "p90 " + h.getValueAtPercentile(90) + " ns");
        assertTrue(h.getCountBetweenValues(20_000_000, Harness.MAX_LATENCY) >= 15,
                h.getCountBetweenValues(20_000_000, Harness.MAX_LATENCY) + " operations over 20 ms");
        assertTrue(ivs.size() >= 3, ivs.size() + " intervals");
        assertEquals(200, ivs.stream().mapToInt(OpenLoop.Interval::ops).sum());
    }

    @Test
    void theLimitSkipsWhatIsAlreadyLate() throws Exception {
        Histogram h = Harness.newHistogram();
        // one client, operations of 5 ms at 1000/s: it falls behind at once
        OpenLoop ol = new OpenLoop(1000, 20_000_000, 0, 1);
        OpenLoop.Result res = ol.run(List.of(i -> Thread.sleep(5)), 0, 300, h, 0, null, null);
        assertEquals(300, res.arrivals());
        assertTrue(res.stats().skipped > 100, res.stats().skipped + " skipped");
        assertEquals(res.stats().done, h.getTotalCount());
        assertTrue(h.getMaxValue() < 20_000_000 + 5_000_000 * 4, "max " + h.getMaxValue());
    }

    @Test
    void anOperationsErrorEndsTheRun() {
        OpenLoop ol = new OpenLoop(1000, 0, 0, 1);
        Exception e = assertThrows(Exception.class, () -> ol.run(List.of(i -> {
            if (i == 3) {
                throw new WrongResultException("bad row");
            }
        }), 0, 100, Harness.newHistogram(), 0, null, null));
        assertTrue(e.getMessage().contains("operation 3") && e.getMessage().contains("bad row"), e.getMessage());
    }

    @Test
    void theRequestCarriesTheOpenLoop() throws Exception {
        String base = "run n=10&name=x&scope=c&target=t&warmup=1&workload=w";
        Request r = Request.parse(base + "&rate=2000&latency-limit=50000000&progress=1000000000");
        assertEquals(2000, r.rate);
        assertEquals(50_000_000, r.latencyLimit);
        assertEquals(1_000_000_000, r.progress);
        assertEquals(0, Request.parse(base).rate);
        assertThrows(ProtocolException.class, () -> Request.parse(base + "&rate=0"));
        assertThrows(ProtocolException.class, () -> Request.parse(base + "&rate=fast"));
        assertThrows(ProtocolException.class, () -> Request.parse(base + "&latency-limit=5"));
        assertThrows(ProtocolException.class, () -> Request.parse(base + "&rate=5&progress=-1"));
    }
}
