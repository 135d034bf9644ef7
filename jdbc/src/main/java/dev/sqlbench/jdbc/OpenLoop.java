package dev.sqlbench.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * An open-loop run, the twin of Go's bench.OpenLoop (sqlbench run --rate):
 * operations arrive on a schedule of their own, Poisson arrivals at rate
 * per second (exponential gaps, as pgbench's --rate draws them), whether or
 * not the earlier ones have finished; each client thread claims the next
 * arrival, parks until its scheduled start if early, and runs it; every
 * operation's latency runs from its scheduled start (no coordinated
 * omission) and is recorded, none sampled. With a latency limit, an
 * operation already more than the limit behind when a client reaches it is
 * skipped, and one done more than the limit after its scheduled start is
 * late. With a progress interval, the run's time series closes an interval
 * every progress nanoseconds. The arrivals repeat with the seed (every run
 * of a cell draws the same schedule); the draws are Java's, not Go's: the
 * same distribution, not the same numbers.
 *
 * @param rate mean arrivals per second, above 0
 * @param latencyLimit nanoseconds, or 0 for none
 * @param progress nanoseconds between the intervals of the time series, or 0 for none
 * @param seed seeds the arrival schedule
 */
public record OpenLoop(double rate, long latencyLimit, long progress, long seed) {

    /** One interval of the time series: what finished in it, as Go's bench.Interval. */
    public record Interval(long end, long length, int ops, int late, int skipped, long p50, long p99, long max,
            long meanLag) {
        /** The interval as Go's Interval.String writes it (durations as Go's, rounded as Go's). */
        @Override
        public String toString() {
            double r = length > 0 ? ops / (length / 1e9) : 0;
            return "t=" + GoDuration.format(GoDuration.round(end, 1_000_000)) + " ops/s="
                    + String.format(java.util.Locale.ROOT, "%.1f", r) + " p50=" + us(p50) + " p99=" + us(p99)
                    + " max=" + us(max) + " lag=" + us(meanLag) + " late=" + late + " skipped=" + skipped;
        }

        private static String us(long d) {
            return GoDuration.format(GoDuration.round(d, 1_000));
        }
    }

    /** What a run measured beside its latencies, as Go's bench.OpenLoopStats. */
    public static final class Stats {
        /** Operations run, skipped, and done over the latency limit. */
        public int done, skipped, late;
        /** Total and longest schedule lag of the operations done, in nanoseconds. */
        public long lag, maxLag;
        /** The time series, when progress is set. */
        public final List<Interval> series = new ArrayList<>();

        /** The mean schedule lag of the operations done. */
        public long meanLag() {
            return done == 0 ? 0 : lag / done;
        }
    }

    /**
     * The arrival schedule, shared by the clients: operation numbers in
     * order, each with its scheduled start from the start of the run.
     */
    static final class Schedule {
        private final SplittableRandom rng;
        private final double rate;
        private final int end;
        private int next;
        private double at; // seconds from the start, of the last arrival drawn

        Schedule(double rate, long seed, int first, int n) {
            this.rng = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + n);
            this.rate = rate;
            this.next = first;
            this.end = first + n;
        }

        /** Returns {operation, scheduled start in ns}, or null once the run's operations are all claimed. */
        synchronized long[] claim() {
            if (next >= end) {
                return null;
            }
            at += -Math.log(1 - rng.nextDouble()) / rate; // exponential gap: 1 - u is in (0, 1]
            return new long[] {next++, (long) (at * 1e9)};
        }
    }

    /** The run's latencies, counts and current interval, shared by the clients. */
    static final class Recorder {
        private final Histogram h;
        private final long limit;
        private final Histogram ih; // the current interval's, when there is a series
        final Stats stats = new Stats();
        private int iOps, iLate, iSkip;
        private long iLag, from;

        Recorder(Histogram h, long limit, boolean series) {
            this.h = h;
            this.limit = limit;
            this.ih = series ? Harness.newHistogram() : null;
        }

        synchronized void skip() {
            stats.skipped++;
            iSkip++;
        }

        synchronized void done(long lag, long latency) {
            long v = Math.min(Math.max(latency, 1), Harness.MAX_LATENCY);
            h.recordValue(v);
            stats.done++;
            stats.lag += lag;
            stats.maxLag = Math.max(stats.maxLag, lag);
            boolean late = limit > 0 && latency > limit;
            if (late) {
                stats.late++;
            }
            if (ih != null) {
                ih.recordValue(v);
                iOps++;
                iLag += lag;
                if (late) {
                    iLate++;
                }
            }
        }

        /** Ends the current interval at end (ns from the start) and starts the next. */
        synchronized Interval close(long end) {
            Interval iv = iOps == 0 ? new Interval(end, end - from, 0, iLate, iSkip, 0, 0, 0, 0)
                    : new Interval(end, end - from, iOps, iLate, iSkip, ih.getValueAtPercentile(50),
                            ih.getValueAtPercentile(99), ih.getMaxValue(), iLag / iOps);
            ih.reset();
            iOps = iLate = iSkip = 0;
            iLag = 0;
            from = end;
            stats.series.add(iv);
            return iv;
        }

        /**
         * Closes the last interval at end: one of its own unless shorter than
         * a tenth of an interval, when its counts join the interval before
         * (whose percentiles stay its own), as Go's recorder.flush; returns
         * the interval to hand on, or null.
         */
        synchronized Interval flush(long end, long progress) {
            int n = stats.series.size();
            if (n > 0 && end - from < progress / 10) {
                Interval l = stats.series.get(n - 1);
                stats.series.set(n - 1, new Interval(end, l.length() + end - from, l.ops() + iOps, l.late() + iLate,
                        l.skipped() + iSkip, l.p50(), l.p99(), l.max(), l.meanLag()));
                return null;
            }
            return close(end);
        }
    }

    /** What one client thread did. */
    private static final class Client {
        long bytes, cpu;
        Exception err;
        TimeSplit.Reading time;
    }

    /** The result of a run: the arrivals (done and skipped), the stats, and the clients' allocations and CPU. */
    record Result(int arrivals, Stats stats, long bytes, long cpu) {
    }

    /**
     * Runs operations [first, first+n) of ops open-loop, one client thread
     * per op; every latency from its scheduled start goes into h (reset by
     * the caller). It stops claiming at deadline (a System.nanoTime value, 0
     * for none) and at the first error. Intervals go to onProgress (may be
     * null) as they close, from a thread of their own; readings, when not
     * null, gets each client thread's schedstat readings.
     */
    Result run(List<Workload.Op> ops, int first, int n, Histogram h, long deadline, Consumer<Interval> onProgress,
            List<TimeSplit.Reading> readings) throws Exception {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("open-loop rate must be above 0, got " + rate);
        }
        Schedule sched = new Schedule(rate, seed, first, n);
        Recorder rec = new Recorder(h, latencyLimit, progress > 0);
        AtomicBoolean failed = new AtomicBoolean();
        List<Client> clients = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int w = 0; w < ops.size(); w++) {
            Workload.Op op = ops.get(w);
            Client c = new Client();
            clients.add(c);
            int client = w;
            threads.add(new Thread(() -> {
                SchedStat me = readings == null ? null : SchedStat.open();
                try {
                    long bytes0 = Allocations.current(), cpu0 = Allocations.cpuNanos();
                    boolean read0 = me != null && me.read();
                    long meCpu0 = read0 ? me.cpu() : 0, meRunq0 = read0 ? me.runq() : 0;
                    loop(op, client, first, sched, rec, start, deadline, failed, c);
                    boolean read1 = read0 && me.read();
                    c.cpu = Allocations.cpuNanos() - cpu0;
                    c.bytes = Allocations.current() - bytes0;
                    if (read1) {
                        c.time = TimeSplit.Reading.between(me.tid(), meCpu0, meRunq0, me.cpu(), me.runq());
                    }
                } finally {
                    if (me != null) {
                        me.close();
                    }
                }
            }, "sqlbench-client-" + w));
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread ticker = null;
        if (progress > 0) {
            ticker = new Thread(() -> {
                for (long k = 1; !stop.get(); k++) {
                    long at = start + k * progress;
                    for (long wait = at - System.nanoTime(); wait > 0 && !stop.get(); wait = at - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                    }
                    if (stop.get()) {
                        return;
                    }
                    Interval iv = rec.close(System.nanoTime() - start);
                    if (onProgress != null) {
                        onProgress.accept(iv);
                    }
                }
            }, "sqlbench-progress");
            ticker.setDaemon(true);
            ticker.start();
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (ticker != null) {
            stop.set(true);
            LockSupport.unpark(ticker);
            ticker.join();
            Interval last = rec.flush(System.nanoTime() - start, progress);
            if (last != null && onProgress != null) {
                onProgress.accept(last);
            }
        }
        long bytes = 0, cpu = 0;
        for (Client c : clients) {
            if (c.err != null) {
                throw c.err;
            }
            bytes += c.bytes;
            cpu += c.cpu;
            if (readings != null && c.time != null) {
                readings.add(c.time);
            }
        }
        return new Result(rec.stats.done + rec.stats.skipped, rec.stats, bytes, cpu);
    }

    /** One client's loop: claim, wait for the scheduled start, skip or run, record. */
    private void loop(Workload.Op op, int client, int first, Schedule sched, Recorder rec, long start, long deadline,
            AtomicBoolean failed, Client c) {
        while (!failed.get()) {
            if (deadline != 0 && System.nanoTime() - deadline >= 0) {
                return;
            }
            long[] claim = sched.claim();
            if (claim == null) {
                return;
            }
            long at = claim[1];
            long wait = at - (System.nanoTime() - start);
            if (wait > 0) {
                if (deadline != 0 && deadline - System.nanoTime() < wait) {
                    return; // scheduled after the run's end
                }
                for (; wait > 0; wait = at - (System.nanoTime() - start)) {
                    LockSupport.parkNanos(wait);
                }
            }
            long began = System.nanoTime() - start;
            long lag = Math.max(began - at, 0);
            if (latencyLimit > 0 && lag > latencyLimit) {
                rec.skip(); // already late: pgbench skips it
                continue;
            }
            try {
                op.run((int) claim[0]);
            } catch (Exception e) {
                c.err = new Harness.OpException("client " + client + ", operation " + (claim[0] - first), e);
                failed.set(true);
                return;
            }
            rec.done(lag, System.nanoTime() - start - at);
        }
    }
}
