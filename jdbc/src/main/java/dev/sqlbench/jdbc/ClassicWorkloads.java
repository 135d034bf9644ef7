package dev.sqlbench.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;

/**
 * The classic family (go-sql-driver/sql-benchmark), as in workloads/classic.go:
 * a 100-row table read whole, row by row, and a no-op statement, each simple
 * (the SQL text sent as is) and prepared (a PreparedStatement). The calls
 * are the published Java program's (SQLBenchmark.java of 2013-03, which the
 * studies ran, and of 2013-10 for the DO statements): the simple operations
 * of a run share one Statement, made poolable as the program's, and each
 * query is execute then getResultSet, its result set left to the next
 * execute to close; a whole-table read reads the number column alone, as
 * the program's; a row lookup's SQL text is built per operation, inside the
 * clock, as the program's. The drivers' defaults decide what "prepared"
 * means on the wire: client-side for both MySQL connectors, server-side
 * after five uses for pgjdbc (prepareThreshold).
 */
public final class ClassicWorkloads {
    static final String TABLE = "test";
    static final int ROWS = 100;
    static final String STR = "Test";
    private static final String DO = "DO 1";
    /**
     * The system property that chooses PreparedExec's call: {@link
     * #PREPARED_EXEC_WITH_SQL}, the published Java program's {@code
     * ps.execute(sql)}; anything else (the default) {@code ps.execute()}.
     */
    static final String PREPARED_EXEC_PROPERTY = "sqlbench.preparedExec";
    /** The value of {@link #PREPARED_EXEC_PROPERTY} for {@code ps.execute(sql)}. */
    static final String PREPARED_EXEC_WITH_SQL = "with-sql";

    private ClassicWorkloads() {
    }

    /** Returns the family in the Go catalogue's order. */
    public static List<Workload> all() {
        return List.of(
                classic("SimpleQuery", (c, d, warm) -> {
                    String q = all(d);
                    TableScan st = new TableScan();
                    Statement s = shared(c);
                    return new Workload.Run(i -> st.scan(query(s, q)), s::close);
                }),
                classic("PreparedQuery", (c, d, warm) -> {
                    TimedStatement ps = new TimedStatement(c, all(d));
                    TableScan st = new TableScan();
                    return ps.run(i -> st.scan(query(ps.ps)));
                }),
                classic("AutoQueryRow", (c, d, warm) -> {
                    // JDBC has no one-row call with arguments: a statement
                    // prepared, run and closed per lookup is what it offers
                    // (the published Java program has no AutoQueryRow).
                    String q = one(d);
                    return new Workload.Run(i -> {
                        int want = i % ROWS;
                        try (PreparedStatement ps = c.prepareStatement(q)) {
                            ps.setInt(1, want);
                            checkRow(query(ps), want);
                        }
                    });
                }),
                classic("SimpleQueryRow", (c, d, warm) -> {
                    String q = star(d);
                    Statement s = shared(c);
                    return new Workload.Run(i -> {
                        int want = i % ROWS;
                        checkRow(query(s, q + want), want);
                    }, s::close);
                }),
                classic("PreparedQueryRow", (c, d, warm) -> {
                    String q = one(d);
                    PreparedStatement[] s = new PreparedStatement[1];
                    Workload.End end = () -> {
                        if (s[0] != null) {
                            s[0].close();
                            s[0] = null;
                        }
                    };
                    // The passes count from the run's first timed operation
                    // (and from the warm-up's first, which ends by closing its
                    // statement), so that the timed run prepares first, as the
                    // published loop; the last close is timed (finish).
                    return Workload.Run.timed(() -> { }, i -> {
                        int k = i >= warm ? i - warm : i;
                        if (k % ROWS == 0 || s[0] == null) {
                            end.end();
                            s[0] = c.prepareStatement(q);
                        }
                        int want = k % ROWS;
                        s[0].setInt(1, want);
                        checkRow(query(s[0]), want);
                    }, end, end);
                }),
                classic("SimpleExec", (c, d, warm) -> {
                    String q = d.noopExec();
                    Statement s = shared(c);
                    return new Workload.Run(i -> s.execute(q), s::close);
                }),
                classic("PreparedExec", (c, d, warm) -> {
                    TimedStatement ps = new TimedStatement(c, d.noopExec());
                    if (PREPARED_EXEC_WITH_SQL.equals(System.getProperty(PREPARED_EXEC_PROPERTY))) {
                        // The SQL-Benchmark Java program's call: the SQL passed
                        // again, which Connector/J runs as a plain statement
                        // (Statement.execute(String), not overridden by its
                        // PreparedStatement); docs/reproduce.md.
                        String q = d.noopExec();
                        return ps.run(i -> ps.ps.execute(q));
                    }
                    return ps.run(i -> ps.ps.execute());
                }),
                classic("SimpleDo", Set.of(Db.MARIADB), (c, d, warm) -> {
                    Statement s = shared(c);
                    return new Workload.Run(i -> s.execute(DO), s::close);
                }),
                classic("PreparedDo", Set.of(Db.MARIADB), (c, d, warm) -> {
                    TimedStatement ps = new TimedStatement(c, DO);
                    return ps.run(i -> ps.ps.execute());
                }));
    }

    /**
     * The statement of a run whose published program prepares it and closes
     * it inside its timed region (SQLBenchmark.java: prepareStatement, the
     * loop, close, between its two clock reads): the run's start prepares
     * it and its finish closes it, both timed, as Go's timedStmt; its end
     * closes it if a failed run left it open.
     */
    static final class TimedStatement {
        private final Connection c;
        private final String q;
        PreparedStatement ps;

        TimedStatement(Connection c, String q) {
            this.c = c;
            this.q = q;
        }

        void start() throws SQLException {
            if (ps != null) {
                throw new SQLException("prepare " + q + ": prepared already");
            }
            ps = c.prepareStatement(q);
        }

        void finish() throws SQLException {
            PreparedStatement s = ps;
            ps = null;
            if (s != null) {
                s.close();
            }
        }

        /** A run of op on the statement: prepared by its start, closed by its finish. */
        Workload.Run run(Workload.Op op) {
            return Workload.Run.timed(this::start, op, this::finish, this::finish);
        }
    }

    /**
     * Returns the Statement a run's simple operations share, made poolable
     * as the published program's (a hint drivers may ignore).
     */
    static Statement shared(Connection c) throws SQLException {
        Statement s = c.createStatement();
        s.setPoolable(true);
        return s;
    }

    /** Runs query q on s as the published program does: execute, then getResultSet. */
    static ResultSet query(Statement s, String q) throws Exception {
        if (!s.execute(q)) {
            throw new WrongResultException("no result set for " + q);
        }
        return s.getResultSet();
    }

    /** Runs ps as the published program does: execute, then getResultSet. */
    static ResultSet query(PreparedStatement ps) throws Exception {
        if (!ps.execute()) {
            throw new WrongResultException("no result set");
        }
        return ps.getResultSet();
    }

    private static String all(Dialect d) {
        return "SELECT number, str FROM " + d.table(TABLE);
    }

    private static String star(Dialect d) {
        return "SELECT * FROM " + d.table(TABLE) + " WHERE number=";
    }

    private static String one(Dialect d) {
        return star(d) + "?";
    }

    /** How a classic workload begins a run. */
    @FunctionalInterface
    private interface Begin {
        /** Begins a run on c whose first warm operations are its warm-up. */
        Workload.Run begin(Connection c, Dialect d, int warm) throws Exception;
    }


    private static Workload classic(String name, Begin b) {
        return classic(name, Set.of(Db.values()), b);
    }

    private static Workload classic(String name, Set<Db> only, Begin b) {
        return new Workload() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Set<Db> only() {
                return only;
            }

            @Override
            public void setup(Env e) throws SQLException {
                ClassicWorkloads.setup(e.conn(), e.dialect());
            }

            @Override
            public Run begin(Env e) throws Exception {
                return b.begin(e.conn(), e.dialect(), e.warm());
            }

            @Override
            public void teardown(Env e) throws SQLException {
                exec(e.conn(), "DROP TABLE IF EXISTS " + e.dialect().table(TABLE));
            }
        };
    }

    /** Creates the 100-row table every classic workload reads, with the Go suite's exact statements. */
    static void setup(Connection c, Dialect d) throws SQLException {
        String table = d.table(TABLE);
        StringBuilder b = new StringBuilder("INSERT INTO " + table + " (number, str) VALUES ");
        for (int i = 0; i < ROWS; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append('(').append(i).append(",'").append(STR).append("')");
        }
        for (String q : List.of("DROP TABLE IF EXISTS " + table,
                create(d, table), b.toString())) {
            try {
                exec(c, q);
            } catch (SQLException e) {
                throw new SQLException("set up " + table + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Returns the statement that creates the classic table: on MariaDB/MySQL
     * the published programs' own, elsewhere its columns and constraints in
     * the dialect's types (as workloads/classic.go's classicCreate).
     */
    static String create(Dialect d, String table) {
        if (d.db() == Db.MARIADB) {
            return "CREATE TABLE " + table + " (`number` int(3) NOT NULL, `str` varchar(4) NOT NULL,"
                    + " PRIMARY KEY (`number`)) ENGINE=InnoDB DEFAULT CHARSET=utf8";
        }
        return "CREATE TABLE " + table + " (number INT NOT NULL, str VARCHAR(4) NOT NULL, PRIMARY KEY (number))";
    }

    static void exec(Connection c, String q) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(q);
        }
    }

    /**
     * Checks a single-row lookup the way Go's database/sql QueryRow does: the
     * first row must exist and be (want, "Test"); further rows are ignored.
     * It reads the row as the published Java program: getInt, getString.
     */
    static void checkRow(ResultSet rs, int want) throws Exception {
        if (!rs.next()) {
            throw new WrongResultException("query returned no rows");
        }
        int num = rs.getInt(1);
        String str = rs.getString(2);
        if (num != want || !STR.equals(str)) {
            throw new WrongResultException("wrong row (" + num + ", \"" + str + "\") for number " + want);
        }
    }

    /**
     * Checks one read of the whole table: every number from 0 to 99 exactly
     * once (the published program also expects them in order, as InnoDB
     * returns a table by its primary key; other engines promise no order
     * without ORDER BY). It reads the number column alone (getInt), as the
     * published Java program's whole-table reads do; the table holds "Test"
     * in every row (setup, and the row lookups check it).
     */
    static final class TableScan {
        private final long[] seen = new long[2];

        void scan(ResultSet rs) throws Exception {
            seen[0] = 0;
            seen[1] = 0;
            int n = 0;
            while (rs.next()) {
                int num = rs.getInt(1);
                n++;
                if (num < 0 || num >= ROWS) {
                    throw new WrongResultException("wrong row number " + num);
                }
                long bit = 1L << (num % 64);
                int w = num / 64;
                if ((seen[w] & bit) != 0) {
                    throw new WrongResultException("row " + num + " returned twice");
                }
                seen[w] |= bit;
            }
            if (n != ROWS) {
                throw new WrongResultException("read " + n + " rows, want " + ROWS);
            }
        }
    }
}
