package dev.sqlbench.jdbc;

import java.util.List;

/**
 * What differs in SQL text between databases: the same statements as Go's
 * bench.Dialect, so that both runners send the servers identical SQL. JDBC
 * placeholders are always '?'; pgjdbc sends them to PostgreSQL as $1, $2 ...,
 * the text the Go drivers send.
 *
 * @param db the database family
 * @param noopExec the cheapest statement that touches no data
 * @param version a query returning the server's (or library's) version
 * @param setup statements run after every open
 * @param scope the cell's id, part of its table names
 */
public record Dialect(Db db, String noopExec, String version, List<String> setup, String scope) {

    /** Returns the dialect of db for the cell scope. */
    public static Dialect of(Db db, String scope) {
        return switch (db) {
            case POSTGRES -> new Dialect(db, "SET sqlbench.test_var = 1", "SHOW server_version", List.of(), scope);
            case MARIADB -> new Dialect(db, "SET @test_var=1", "SELECT VERSION()", List.of(), scope);
            case SQLITE -> new Dialect(db, "SELECT 1", "SELECT sqlite_version()", sqliteSetup(), scope);
        };
    }

    /** The session settings every SQLite target runs under (Go's bench.SQLiteSetup). */
    public static List<String> sqliteSetup() {
        return List.of("PRAGMA journal_mode=DELETE", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON",
                "PRAGMA busy_timeout=5000");
    }

    /** Returns the name of a workload's table: sqlbench's prefix, the cell's scope, and base. */
    public String table(String base) {
        return scope.isEmpty() ? "sqlbench_" + base : "sqlbench_" + scope + "_" + base;
    }
}
