package dev.sqlbench.jdbc;

/**
 * Lets a run pause its clock, the twin of Go's bench.Timer: a workload whose
 * input would not fit in memory generates it a block at a time, stopping the
 * timer around each block, so that the figure times the driver and not the
 * generator. A Run that pauses sets Run.timer; Harness.measure resets it
 * before the run and takes the paused time off the run's elapsed time, off
 * the latency of the operation that paused, and off the timing thread's
 * on-CPU time, then its run-queue time (TimeSplit).
 * A Timer belongs to one thread: only a run on one thread (op or batch) may
 * pause. The heap bytes the paused regions allocate are still counted.
 */
public final class Timer {
    private long paused;
    private long stoppedAt;
    private boolean running;
    private boolean stoppedOnce;

    /** Pauses the clock; a stop while paused does nothing. */
    public void stop() {
        if (running) {
            running = false;
            stoppedOnce = true;
            stoppedAt = System.nanoTime();
        }
    }

    /** Resumes the clock; a start while running does nothing. */
    public void start() {
        if (!running) {
            running = true;
            if (stoppedOnce) {
                paused += System.nanoTime() - stoppedAt;
            }
        }
    }

    /** Returns the nanoseconds spent paused since the last reset. */
    public long paused() {
        return paused;
    }

    /** Starts the clock running with nothing paused. */
    void reset() {
        paused = 0;
        running = true;
    }

    /** Returns the nanoseconds paused so far, the current pause included. */
    long pausedNow() {
        return running ? paused : paused + System.nanoTime() - stoppedAt;
    }
}
