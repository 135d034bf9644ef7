package dev.sqlbench.jdbc;

import java.sql.Connection;

/**
 * A workload set up on an open connection, kept between runs.
 *
 * @param conn the cell's connection
 * @param workload what runs
 * @param dialect the database's SQL
 */
record Cell(Connection conn, Workload workload, Dialect dialect) {
}
