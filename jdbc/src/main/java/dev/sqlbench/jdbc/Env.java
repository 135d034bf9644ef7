package dev.sqlbench.jdbc;

import java.sql.Connection;
import java.util.Properties;

/**
 * What a workload's methods are given, the twin of Go's bench.Env: the
 * cell's connection and dialect, a way to open more connections of the same
 * target, and (for begin) the run's untimed and timed operation counts.
 *
 * @param conn the cell's connection, open for the cell's lifetime
 * @param dialect the cell's database dialect, scoped to the cell
 * @param opener opens another connection with the session settings applied
 * @param warm untimed operations of the run being begun
 * @param n timed operations of the run being begun
 */
public record Env(Connection conn, Dialect dialect, Opener opener, int warm, int n) {

    /** Opens connections of the cell's target. */
    @FunctionalInterface
    public interface Opener {
        /** Opens another connection with extra driver properties; the caller closes it. */
        Connection open(Properties extra) throws Exception;

        /** Opens another connection; the caller closes it. */
        default Connection open() throws Exception {
            return open(new Properties());
        }
    }

    /** Returns the env of one run of warm + n operations. */
    public Env forRun(int warm, int n) {
        return new Env(conn, dialect, opener, warm, n);
    }
}
