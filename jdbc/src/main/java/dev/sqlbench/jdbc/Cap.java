package dev.sqlbench.jdbc;

/**
 * An ability a JDBC target has beyond plain statements, the twin of Go's
 * bench.Cap: a workload that needs one runs only on targets that declare it.
 * Each target declares its own (Target); the hello reply reports them, and
 * the orchestrator skips a target whose declaration differs from the Go
 * target catalogue's.
 */
public enum Cap {
    /** PostgreSQL COPY FROM STDIN (pgjdbc's CopyManager). */
    COPY("copy"),
    /** LOAD DATA LOCAL INFILE streamed from the runner. */
    LOAD("load"),
    /** A prepared statement's executions batched (addBatch, executeBatch). */
    BATCH("batch"),
    /**
     * Batches the driver rewrites into multi-row INSERTs (Connector/J rewriteBatchedStatements, pgjdbc
     * reWriteBatchedInserts).
     */
    REWRITE("rewrite"),
    /** A pool that many threads share (HikariCP): the cell's workloads open it themselves. */
    POOL("pool"),
    /**
     * A query's deadline: Statement.cancel() from another thread when it passes (the twin of Go's CapContext, a
     * context-taking call), the cancel family's need.
     */
    CONTEXT("context");

    /** The capability's name in the protocol, as Go's bench.Cap value. */
    public final String key;

    Cap(String key) {
        this.key = key;
    }
}
