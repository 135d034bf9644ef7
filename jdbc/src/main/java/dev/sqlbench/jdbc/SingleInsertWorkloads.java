package dev.sqlbench.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * SingleInsert (family "insert"), as the Go definition in
 * workloads/singleinsert.go: one autocommitted INSERT of one row per
 * operation by 1, 2, 4 or 8 clients, each with its own connection and its
 * own PreparedStatement; the table is recreated before every run and read
 * back after it (row count and checksum). Operation i inserts id = i and,
 * for data=fixed, the fixed row, for data=random the generated name
 * DataGen.value(i, 0, 2, 32) and value Mix(VALUE_BASE + 2i + 1) >>> 1,
 * every row generated before the clock starts.
 * On SQLite an INSERT that found the file locked after busy_timeout is
 * retried, up to 60 times, as in Go.
 */
public final class SingleInsertWorkloads {
    static final String TABLE = "single";
    static final int WIDTH = 32;
    static final String FIXED_NAME = "sqlbench-single-insert-fixed-row";
    static final long FIXED_VALUE = 1234567890L;
    static final int BUSY_RETRIES = 60;

    private SingleInsertWorkloads() {
    }

    /** Returns data=fixed|random × conns=1|2|4|8, in the Go catalogue's order. */
    public static List<Workload> all() {
        List<Workload> ws = new ArrayList<>();
        for (boolean random : new boolean[] {false, true}) {
            for (int n : new int[] {1, 2, 4, 8}) {
                ws.add(workload(random, n));
            }
        }
        return ws;
    }

    static String ddl(Dialect d, String table) {
        return "CREATE TABLE " + table + " (id " + (d.db() == Db.SQLITE ? "INTEGER" : "BIGINT")
                + " PRIMARY KEY, name VARCHAR(64) NOT NULL, value BIGINT NOT NULL)";
    }

    static String insert(Dialect d) {
        return "INSERT INTO " + d.table(TABLE) + " (id, name, value) VALUES (?, ?, ?)";
    }

    static String name(boolean random, long i) {
        return random ? DataGen.value(i, 0, 2, WIDTH) : FIXED_NAME;
    }

    static long value(boolean random, long i) {
        return random ? DataGen.mix(DataGen.VALUE_BASE + 2 * i + 1) >>> 1 : FIXED_VALUE;
    }

    static long hash(long id, String name, long value) {
        return new DataGen.RowHasher().addInt(id).add(name).addInt(value).sum();
    }

    /** Whether e is SQLite's "database is locked", as sqlite-jdbc words it. */
    static boolean busy(Dialect d, SQLException e) {
        if (d.db() != Db.SQLITE || e.getMessage() == null) {
            return false;
        }
        return e.getMessage().contains("database is locked") || e.getMessage().contains("SQLITE_BUSY");
    }

    private static Workload workload(boolean random, int clients) {
        String id = "SingleInsert/data=" + (random ? "random" : "fixed") + "/conns=" + clients;
        return new Workload() {
            @Override
            public String name() {
                return id;
            }

            @Override
            public void setup(Env e) {
                // each run creates its table
            }

            @Override
            public Run begin(Env e) throws Exception {
                return run(e, clients, random);
            }

            @Override
            public void teardown(Env e) throws SQLException {
                ClassicWorkloads.exec(e.conn(), "DROP TABLE IF EXISTS " + e.dialect().table(TABLE));
            }
        };
    }

    private static Workload.Run run(Env e, int clients, boolean random) throws Exception {
        Dialect d = e.dialect();
        String table = d.table(TABLE);
        for (String q : List.of("DROP TABLE IF EXISTS " + table, ddl(d, table))) {
            try {
                ClassicWorkloads.exec(e.conn(), q);
            } catch (SQLException ex) {
                throw new Exception("recreate " + table + ": " + Server.describe(ex), ex);
            }
        }
        List<Connection> conns = new ArrayList<>();
        List<PreparedStatement> stmts = new ArrayList<>();
        Workload.End release = () -> {
            Exception first = null;
            for (AutoCloseable c : stmts) {
                try {
                    c.close();
                } catch (Exception ex) {
                    first = first == null ? new Exception("close statement: " + Server.describe(ex), ex) : first;
                }
            }
            for (AutoCloseable c : conns) {
                try {
                    c.close();
                } catch (Exception ex) {
                    first = first == null ? new Exception("close client: " + Server.describe(ex), ex) : first;
                }
            }
            if (first != null) {
                throw first;
            }
        };
        // The rows are generated before the clock starts, as Go's twin and
        // the published benchmark do.
        int total = e.warm() + e.n();
        String[] names = new String[total];
        long[] values = new long[total];
        for (int i = 0; i < total; i++) {
            names[i] = name(random, i);
            values[i] = value(random, i);
        }
        List<Workload.Op> ops = new ArrayList<>();
        try {
            for (int k = 0; k < clients; k++) {
                Connection c;
                try {
                    c = e.opener().open();
                } catch (Exception ex) {
                    throw new Exception("open client " + k + ": " + Server.describe(ex), ex);
                }
                conns.add(c);
                PreparedStatement s;
                try {
                    s = c.prepareStatement(insert(d));
                } catch (SQLException ex) {
                    throw new Exception("prepare on client " + k + ": " + Server.describe(ex), ex);
                }
                stmts.add(s);
                ops.add(i -> {
                    s.setLong(1, i);
                    s.setString(2, names[i]);
                    s.setLong(3, values[i]);
                    for (int attempt = 0;; attempt++) {
                        try {
                            s.executeUpdate();
                            return;
                        } catch (SQLException ex) {
                            if (attempt >= BUSY_RETRIES || !busy(d, ex)) {
                                throw ex;
                            }
                        }
                    }
                });
            }
        } catch (Exception ex) {
            try {
                release.end();
            } catch (Exception ignored) {
                // the set-up error is the one to report
            }
            throw ex;
        }
        Workload.End end = () -> {
            release.end();
            verify(e.conn(), table, random, total);
        };
        return new Workload.Run(ops, end);
    }

    /** Reads the table back and compares it with rows 0..total-1. */
    static void verify(Connection c, String table, boolean random, long total) throws Exception {
        DataGen.Checksum want = new DataGen.Checksum(0, 0);
        for (long i = 0; i < total; i++) {
            want = want.add(hash(i, name(random, i), value(random, i)));
        }
        DataGen.Checksum got = new DataGen.Checksum(0, 0);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, name, value FROM " + table)) {
            while (rs.next()) {
                byte[] name = rs.getString(2).getBytes(StandardCharsets.UTF_8);
                long h = new DataGen.RowHasher().addInt(rs.getLong(1)).add(name, 0, name.length).addInt(rs.getLong(3)).sum();
                got = got.add(h);
            }
        } catch (SQLException ex) {
            throw new Exception("read back " + table + ": " + Server.describe(ex), ex);
        }
        if (!got.equals(want)) {
            throw new WrongResultException(String.format("%s holds %d rows (checksum %x), want %d rows (checksum %x)",
                    table, got.rows(), got.sum(), want.rows(), want.sum()));
        }
    }
}
