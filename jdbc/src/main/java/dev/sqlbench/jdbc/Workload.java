package dev.sqlbench.jdbc;

import java.sql.Connection;
import java.util.Set;

/**
 * One benchmark, written against JDBC, the twin of a Go bench.Workload of the
 * same name: the same SQL, operation semantics and result checks.
 */
public interface Workload {
    /** The benchmark name. */
    String name();

    /** The databases it runs on. */
    default Set<Db> only() {
        return Set.of(Db.values());
    }

    /** Prepares the database once per cell (untimed). */
    void setup(Connection c, Dialect d) throws Exception;

    /** Prepares one run; the returned run's op is what the harness times. */
    Run begin(Connection c, Dialect d) throws Exception;

    /** Drops what setup created, when the cell closes. */
    void teardown(Connection c, Dialect d) throws Exception;

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

    /**
     * One timed run of a workload.
     *
     * @param op the operation the harness times
     * @param end what to release afterwards (never null)
     */
    record Run(Op op, End end) {
        /** A run with nothing to release. */
        public Run(Op op) {
            this(op, () -> { });
        }
    }
}
