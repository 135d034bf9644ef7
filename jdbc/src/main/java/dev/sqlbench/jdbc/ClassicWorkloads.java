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
 * (a java.sql.Statement per call, the SQL text sent as is) and prepared (a
 * PreparedStatement). The drivers' defaults decide what "prepared" means on
 * the wire: client-side for both MySQL connectors, server-side after five
 * uses for pgjdbc (prepareThreshold).
 */
public final class ClassicWorkloads {
    static final String TABLE = "test";
    static final int ROWS = 100;
    static final String STR = "Test";
    private static final String DO = "DO 1";

    private ClassicWorkloads() {
    }

    /** Returns the family in the Go catalogue's order. */
    public static List<Workload> all() {
        return List.of(
                classic("SimpleQuery", (c, d) -> {
                    String q = all(d);
                    TableScan st = new TableScan();
                    return new Workload.Run(i -> {
                        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(q)) {
                            st.scan(rs);
                        }
                    });
                }),
                classic("PreparedQuery", (c, d) -> {
                    PreparedStatement ps = c.prepareStatement(all(d));
                    TableScan st = new TableScan();
                    return new Workload.Run(i -> {
                        try (ResultSet rs = ps.executeQuery()) {
                            st.scan(rs);
                        }
                    }, ps::close);
                }),
                classic("AutoQueryRow", (c, d) -> {
                    // JDBC has no one-row call with arguments: a statement
                    // prepared, run and closed per lookup is what it offers.
                    String q = one(d);
                    return new Workload.Run(i -> {
                        long want = i % ROWS + 1;
                        try (PreparedStatement ps = c.prepareStatement(q)) {
                            ps.setLong(1, want);
                            try (ResultSet rs = ps.executeQuery()) {
                                checkRow(rs, want);
                            }
                        }
                    });
                }),
                classic("SimpleQueryRow", (c, d) -> {
                    String[] texts = new String[ROWS];
                    for (int k = 0; k < ROWS; k++) {
                        texts[k] = all(d) + " WHERE number=" + (k + 1);
                    }
                    return new Workload.Run(i -> {
                        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(texts[i % ROWS])) {
                            checkRow(rs, i % ROWS + 1);
                        }
                    });
                }),
                classic("PreparedQueryRow", (c, d) -> {
                    String q = one(d);
                    PreparedStatement[] s = new PreparedStatement[1];
                    Workload.End end = () -> {
                        if (s[0] != null) {
                            s[0].close();
                            s[0] = null;
                        }
                    };
                    return new Workload.Run(i -> {
                        if (i % ROWS == 0 || s[0] == null) {
                            end.end();
                            s[0] = c.prepareStatement(q);
                        }
                        long want = i % ROWS + 1;
                        s[0].setLong(1, want);
                        try (ResultSet rs = s[0].executeQuery()) {
                            checkRow(rs, want);
                        }
                    }, end);
                }),
                classic("SimpleExec", (c, d) -> {
                    String q = d.noopExec();
                    return new Workload.Run(i -> {
                        try (Statement s = c.createStatement()) {
                            s.execute(q);
                        }
                    });
                }),
                classic("PreparedExec", (c, d) -> {
                    PreparedStatement ps = c.prepareStatement(d.noopExec());
                    return new Workload.Run(i -> ps.execute(), ps::close);
                }),
                classic("SimpleDo", Set.of(Db.MARIADB), (c, d) -> new Workload.Run(i -> {
                    try (Statement s = c.createStatement()) {
                        s.execute(DO);
                    }
                })),
                classic("PreparedDo", Set.of(Db.MARIADB), (c, d) -> {
                    PreparedStatement ps = c.prepareStatement(DO);
                    return new Workload.Run(i -> ps.execute(), ps::close);
                }));
    }

    private static String all(Dialect d) {
        return "SELECT number, str FROM " + d.table(TABLE);
    }

    private static String one(Dialect d) {
        return all(d) + " WHERE number=?";
    }

    /** How a classic workload begins a run. */
    @FunctionalInterface
    private interface Begin {
        Workload.Run begin(Connection c, Dialect d) throws Exception;
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
                return b.begin(e.conn(), e.dialect());
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
        for (int i = 1; i <= ROWS; i++) {
            if (i > 1) {
                b.append(',');
            }
            b.append('(').append(i).append(",'").append(STR).append("')");
        }
        for (String q : List.of("DROP TABLE IF EXISTS " + table,
                "CREATE TABLE " + table + " (number INT PRIMARY KEY, str VARCHAR(4))", b.toString())) {
            try {
                exec(c, q);
            } catch (SQLException e) {
                throw new SQLException("set up " + table + ": " + e.getMessage(), e);
            }
        }
    }

    static void exec(Connection c, String q) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(q);
        }
    }

    /**
     * Checks a single-row lookup the way Go's database/sql QueryRow does: the
     * first row must exist and be (want, "Test"); further rows are ignored.
     */
    static void checkRow(ResultSet rs, long want) throws Exception {
        if (!rs.next()) {
            throw new WrongResultException("query returned no rows");
        }
        long num = rs.getLong(1);
        String str = rs.getString(2);
        if (num != want || !STR.equals(str)) {
            throw new WrongResultException("wrong row (" + num + ", \"" + str + "\") for number " + want);
        }
    }

    /** Checks one read of the whole table: every number from 1 to 100 exactly once, each with "Test". */
    static final class TableScan {
        private final long[] seen = new long[2];

        void scan(ResultSet rs) throws Exception {
            seen[0] = 0;
            seen[1] = 0;
            int n = 0;
            while (rs.next()) {
                long num = rs.getLong(1);
                String str = rs.getString(2);
                n++;
                if (num < 1 || num > ROWS || !STR.equals(str)) {
                    throw new WrongResultException("wrong row (" + num + ", \"" + str + "\")");
                }
                long bit = 1L << ((num - 1) % 64);
                int w = (int) ((num - 1) / 64);
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
