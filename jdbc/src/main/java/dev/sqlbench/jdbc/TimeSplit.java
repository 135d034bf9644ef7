package dev.sqlbench.jdbc;

import java.util.ArrayList;
import java.util.List;

/**
 * How the thread(s) that ran a run's timed operations spent its elapsed
 * time, from their own schedstat (see docs/where-time-goes.md): on a CPU,
 * runnable but waiting for one (run queue), and the rest (blocked: waiting
 * for the server, the disk, a lock, a wake-up). For a parallel run each
 * is the mean over its W client threads, so the three add up to the run's
 * elapsed time and so to ns/op times n, exactly up to float rounding, and
 * none is negative.
 *
 * @param oncpu nanoseconds on a CPU (of the mean timing thread)
 * @param runq nanoseconds runnable but not running
 * @param blocked the rest of the elapsed time
 * @param threadCpu the timing threads' CPU time summed over them, the
 *     paused regions included: what the runner's background CPU is not
 * @param tids the timing threads' ids in /proc/self/task
 */
public record TimeSplit(double oncpu, double runq, double blocked, long threadCpu, List<String> tids) {

    /** What one timing thread's schedstat said over a run. */
    public record Reading(String tid, long cpu, long runq) {
        /** Returns what a thread's readings at a run's start and at its stop differ by. */
        static Reading between(String tid, long cpu0, long runq0, long cpu1, long runq1) {
            return new Reading(tid, cpu1 - cpu0, runq1 - runq0);
        }
    }

    /**
     * Splits a parallel run's elapsed time by its client threads' readings,
     * each with the coordinating thread's serialCpu and serialRunq added:
     * what that thread did alone (the run's start and finish) while no
     * client ran is each client's share of that wall time, not time it was
     * blocked. The serial CPU counts once in threadCpu, and the
     * coordinating thread (coordTid, or null when it did nothing alone) is
     * among the timing threads, not the background. Returns null without
     * readings.
     */
    static TimeSplit withSerial(List<Reading> clients, String coordTid, long serialCpu, long serialRunq, long elapsed) {
        List<Reading> with = new ArrayList<>();
        for (Reading r : clients) {
            with.add(new Reading(r.tid(), r.cpu() + serialCpu, r.runq() + serialRunq));
        }
        TimeSplit t = of(with, elapsed, 0);
        if (t == null) {
            return null;
        }
        long twice = (long) (clients.size() - 1) * Math.max(serialCpu, 0);
        List<String> tids = new ArrayList<>(t.tids());
        if (coordTid != null) {
            tids.add(coordTid);
        }
        return new TimeSplit(t.oncpu(), t.runq(), t.blocked(), Math.max(t.threadCpu() - twice, 0), List.copyOf(tids));
    }

    /**
     * Splits elapsed (the run's wall time, paused regions taken off) by the
     * readings of its timing threads. paused, the wall time of the paused
     * regions inside the readings, comes off each thread's CPU time first
     * (down to 0), then off its run-queue time, then off blocked. Where a
     * thread's CPU and run-queue time add up to more than elapsed (the
     * kernel's clocks and System.nanoTime differ by microseconds) both are
     * scaled down to fill it and blocked is 0. Returns null without
     * readings.
     */
    static TimeSplit of(List<Reading> threads, long elapsed, long paused) {
        if (threads.isEmpty()) {
            return null;
        }
        double oncpu = 0, runq = 0, blocked = 0;
        long threadCpu = 0;
        List<String> tids = new ArrayList<>();
        long e = Math.max(elapsed, 0);
        for (Reading r : threads) {
            threadCpu += Math.max(r.cpu(), 0);
            tids.add(r.tid());
            long cpu = Math.max(r.cpu(), 0);
            long rq = Math.max(r.runq(), 0);
            long offCpu = Math.min(cpu, Math.max(paused, 0));
            cpu -= offCpu;
            rq -= Math.min(rq, Math.max(paused, 0) - offCpu);
            if (cpu + rq > e) {
                // no rounding past elapsed: the run queue gets the rest, >= 0
                double c = Math.min((double) e * cpu / (cpu + rq), e);
                oncpu += c;
                runq += e - c;
            } else {
                oncpu += cpu;
                runq += rq;
                blocked += e - cpu - rq;
            }
        }
        int w = threads.size();
        return new TimeSplit(oncpu / w, runq / w, blocked / w, threadCpu, List.copyOf(tids));
    }
}
