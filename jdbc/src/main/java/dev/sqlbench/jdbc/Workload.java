package dev.sqlbench.jdbc;

import java.util.List;
import java.util.Set;

/**
 * One benchmark, written against JDBC, the twin of a Go bench.Workload of the
 * same name: the same SQL, operation semantics and result checks.
 */
public interface Workload {
    /** The workload's ID: its name, then its keys ("SingleInsert/data=fixed/conns=2/prepare=each"). */
    String name();

    /** The databases it runs on. */
    default Set<Db> only() {
        return Set.of(Db.values());
    }

    /** Prepares the database once per cell (untimed). */
    void setup(Env e) throws Exception;

    /** Prepares one run; the returned run's operations are what the harness times. */
    Run begin(Env e) throws Exception;

    /** Drops what setup created, when the cell closes. */
    void teardown(Env e) throws Exception;

    /** One operation: operation i of a run, which checks its own result. */
    @FunctionalInterface
    interface Op {
        /** Performs operation i; a wrong result is an exception. */
        void run(int i) throws Exception;
    }

    /** Something to release when a run ends. */
    @FunctionalInterface
    interface End {
        /** Releases what begin prepared. */
        void end() throws Exception;
    }

    /** Operations [first, first+n) in one call, for APIs that take a whole stream (COPY, LOAD DATA). */
    @FunctionalInterface
    interface Batch {
        /** Performs operations [first, first+n). */
        void run(int first, int n) throws Exception;
    }

    /**
     * One timed run of a workload, as Go's bench.Run: exactly one of op (one
     * thread), parallel (one operation per client thread, each taking the
     * next operation number until the run's are done) and batch (all of a
     * run's operations in one call, no latencies sampled) is set.
     *
     * @param op the operation the harness times on one thread, or null
     * @param parallel one operation per client thread, or null
     * @param batch the run's operations in one call, or null
     * @param finish timed after the last operation (a bulk insert's commit, the close of what start
     *     prepared), or null
     * @param end releases (and checks) what begin prepared, untimed; never null
     * @param bytesPerOp the payload one operation moves (the line then has MB/s), or 0
     * @param timer the clock the run pauses while it generates its input, or null
     * @param durationNanos when positive (parallel runs only), the run stops claiming operations
     *     once this long has passed (a script run for a time)
     * @param units further units of the result line (" V UNIT" each), or null
     * @param start timed before the first operation (the prepare of a published program that prepares
     *     inside its timed region), paired with finish, or null; as Go's bench.Run.Start, a warm-up
     *     runs between a start and a finish of its own, and a run in slices times start in its
     *     first slice and finish in its last only
     */
    record Run(Op op, List<Op> parallel, Batch batch, End finish, End end, double bytesPerOp, Timer timer,
            long durationNanos, java.util.function.Supplier<String> units, End start) {
        /** A run of a count of operations, with no further units. */
        public Run(Op op, List<Op> parallel, Batch batch, End finish, End end, double bytesPerOp, Timer timer) {
            this(op, parallel, batch, finish, end, bytesPerOp, timer, 0, null, null);
        }

        /** A run on one thread whose start and finish are timed around its operations. */
        public static Run timed(End start, Op op, End finish, End end) {
            return new Run(op, null, null, finish, end, 0, null, 0, null, start);
        }

        /** A run that never pauses its clock. */
        public Run(Op op, List<Op> parallel, Batch batch, End finish, End end, double bytesPerOp) {
            this(op, parallel, batch, finish, end, bytesPerOp, null);
        }

        /** A run on one thread with nothing to release. */
        public Run(Op op) {
            this(op, null, null, null, () -> { }, 0);
        }

        /** A run on one thread. */
        public Run(Op op, End end) {
            this(op, null, null, null, end, 0);
        }

        /** A run on client threads. */
        public Run(List<Op> parallel, End end) {
            this(null, parallel, null, null, end, 0);
        }
    }
}
