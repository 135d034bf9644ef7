package dev.sqlbench.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The cancel family, the twin of Go's workloads/cancel.go: every query with
 * a deadline of its own on a connection of the run's own, one in EVERY a
 * slow query the deadline cuts short. JDBC's deadline is
 * Statement.setQueryTimeout, whole seconds only (and MariaDB Connector/J
 * rewrites the SQL for it), so the deadline here is the other idiomatic
 * path: Statement.cancel() called from another thread (the run's deadline
 * thread) when the deadline passes, as Go's context.WithTimeout fires. What
 * cancel() does is the driver's: pgjdbc sends a CancelRequest on a side
 * connection, MariaDB and MySQL Connector/J send KILL QUERY on another
 * connection; the server's session ids tell whether the run's connection
 * survived (docs/cancel.md). The units are Go's: cancel-ns/cancel,
 * recover-ns/cancel, newconn/cancel, reopen/cancel.
 */
final class CancelWorkloads {
    /** One query in EVERY is slow and cancelled. */
    static final int EVERY = 10;
    /** A slow query's deadline. */
    static final long DEADLINE_NANOS = 20_000_000L;
    /** A fast query's deadline: not meant to be hit. */
    static final long FAST_WAIT_NANOS = 5_000_000_000L;
    /** Seconds the slow query would sleep. */
    static final int SLEEP = 3;
    /** The longest a cancelled call may take after its deadline. */
    static final long BOUND_NANOS = 1_500_000_000L;

    private CancelWorkloads() {
    }

    static List<Workload> all() {
        return List.of(new Cancel());
    }

    /** The query of the server session's id on db, as Go's sessionIDQuery. */
    static String sessionIdQuery(Db db) {
        return db == Db.POSTGRES ? "SELECT pg_backend_pid()" : "SELECT CONNECTION_ID()";
    }

    /** The slow query on db, as Go's sleepQuery. */
    static String sleepQuery(Db db) {
        return db == Db.POSTGRES ? "SELECT pg_sleep(" + SLEEP + ")" : "SELECT SLEEP(" + SLEEP + ")";
    }

    /** Cancel. */
    static final class Cancel implements Workload {
        @Override
        public String name() {
            return "Cancel";
        }

        @Override
        public Set<Db> only() {
            return Set.of(Db.MARIADB, Db.POSTGRES);
        }

        @Override
        public void setup(Env e) {
        }

        @Override
        public Run begin(Env e) throws Exception {
            CancelRun r = new CancelRun(e);
            String fast = sessionIdQuery(e.dialect().db()), slow = sleepQuery(e.dialect().db());
            return new Run(i -> {
                if (i % EVERY == EVERY - 1) {
                    r.cancel(slow);
                } else {
                    r.fast(fast);
                }
            }, null, null, null, r::close, 0, null, 0, r::units, null);
        }

        @Override
        public void teardown(Env e) {
        }
    }

    /** One run's connection, deadline thread and tallies, as Go's cancelRun. */
    static final class CancelRun {
        private final Env e;
        private final ScheduledThreadPoolExecutor deadlines;
        private Connection conn;
        private long id; // the server session of the last query
        private boolean after; // the last operation was a cancel
        private int cancels, recovers, newConns, reopens;
        private long cancelNanos, recoverNanos;

        CancelRun(Env e) throws Exception {
            this.e = e;
            deadlines = new ScheduledThreadPoolExecutor(1, task -> {
                Thread t = new Thread(task, "sqlbench-deadline");
                t.setDaemon(true);
                return t;
            });
            deadlines.setRemoveOnCancelPolicy(true);
            try {
                conn = e.opener().open();
            } catch (Exception ex) {
                deadlines.shutdownNow();
                throw new Exception("cancel: open: " + Server.describe(ex), ex);
            }
        }

        /** The run's units, as Go's Metrics: none before a cancel and its first query after. */
        String units() {
            if (cancels == 0 || recovers == 0) {
                return "";
            }
            double n = cancels, m = recovers;
            return " " + ResultLine.number(cancelNanos / n) + " cancel-ns/cancel " + ResultLine.number(recoverNanos / m)
                    + " recover-ns/cancel " + ResultLine.number(newConns / m) + " newconn/cancel "
                    + ResultLine.number(reopens / m) + " reopen/cancel";
        }

        void close() throws Exception {
            deadlines.shutdownNow();
            conn.close();
        }

        /**
         * Runs q on a statement of its own and returns the first column of
         * its one row; the deadline thread calls the statement's cancel() at
         * deadline (a System.nanoTime value) unless the call has returned.
         * A cancel that ran is waited for before this returns, so that no
         * cancel reaches a later query.
         */
        long query(String q, long deadline, AtomicReference<SQLException> cancelErr) throws Exception {
            try (Statement s = conn.createStatement()) {
                ScheduledFuture<?> f = deadlines.schedule(() -> {
                    try {
                        s.cancel();
                    } catch (SQLException ex) {
                        cancelErr.set(ex);
                    }
                }, deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                try (ResultSet rs = s.executeQuery(q)) {
                    if (!rs.next()) {
                        throw new WrongResultException(q + ": no row");
                    }
                    return rs.getLong(1);
                } finally {
                    if (!f.cancel(false)) {
                        try {
                            f.get();
                        } catch (CancellationException | ExecutionException ignored) {
                            // the task catches what cancel() throws
                        }
                    }
                }
            }
        }

        /**
         * Runs the slow query under the short deadline and checks that the
         * call failed, after its deadline and within BOUND_NANOS of it.
         */
        void cancel(String q) throws Exception {
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            AtomicReference<SQLException> cancelErr = new AtomicReference<>();
            Exception err = null;
            try {
                query(q, deadline, cancelErr);
            } catch (SQLException ex) {
                err = ex;
            }
            long late = System.nanoTime() - deadline;
            String why = cancelErr.get() == null ? "" : " (cancel(): " + Server.describe(cancelErr.get()) + ")";
            if (err == null) {
                throw new WrongResultException("cancel: " + q + " returned within its " + DEADLINE_NANOS / 1_000_000
                        + "ms deadline" + why);
            }
            if (late < 0) {
                throw new Exception("cancel: " + q + " failed " + -late + "ns before its deadline: "
                        + Server.describe(err), err);
            }
            if (late > BOUND_NANOS) {
                throw new Exception("cancel: " + q + " returned " + late / 1_000_000 + "ms after its deadline (bound "
                        + BOUND_NANOS / 1_000_000 + "ms)" + why);
            }
            cancels++;
            cancelNanos += late;
            after = true;
        }

        /**
         * Reads the session id under the generous deadline; the first query
         * after a cancel is timed as the recovery, and a connection the
         * cancel left unusable is replaced (counted as a reopen).
         */
        void fast(String q) throws Exception {
            long t0 = System.nanoTime();
            long got;
            try {
                got = sessionId(q);
            } catch (SQLException ex) {
                if (!after) {
                    throw new Exception("cancel: " + q + ": " + Server.describe(ex), ex);
                }
                try {
                    conn.close();
                } catch (SQLException ignored) {
                    // the connection the cancel broke
                }
                try {
                    conn = e.opener().open();
                    reopens++;
                    got = sessionId(q);
                } catch (Exception again) {
                    throw new Exception("cancel: " + q + ": " + Server.describe(again), again);
                }
            }
            if (got <= 0) {
                throw new WrongResultException("cancel: " + q + " returned " + got);
            }
            if (after) {
                recovers++;
                recoverNanos += System.nanoTime() - t0;
                if (id != 0 && got != id) {
                    newConns++;
                }
            } else if (id != 0 && got != id) {
                throw new WrongResultException("cancel: the server session changed from " + id + " to " + got
                        + " with no cancel between");
            }
            id = got;
            after = false;
        }

        private long sessionId(String q) throws Exception {
            AtomicReference<SQLException> cancelErr = new AtomicReference<>();
            return query(q, System.nanoTime() + FAST_WAIT_NANOS, cancelErr);
        }
    }
}
