package dev.sqlbench.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The batch family (family "batch"), as the Go definition in
 * workloads/batch.go: 50 statements per operation, single-row INSERTs into
 * batchins(id, v) or point SELECTs of the 1,000-row batchsel, v = id*31+7.
 * path=each runs them one per round trip (the statement prepared once per
 * run, one execution per statement, autocommit); path=executebatch adds the
 * 50 INSERTs to a batch (addBatch) and sends it with executeBatch, the
 * driver's defaults; path=rewrite does the same on a connection of its own
 * with the driver's rewrite option (Connector/J rewriteBatchedStatements=true,
 * pgjdbc reWriteBatchedInserts=true), which sends the batch as multi-row
 * INSERTs. Inserted rows are read back after the run (ids in order, each
 * value); selected values are checked inside the timed loop.
 */
public final class BatchWorkloads {
    static final int SIZE = 50;
    static final int SELECT_ROWS = 1000;
    static final String INSERTS = "batchins";
    static final String SELECTS = "batchsel";

    private BatchWorkloads() {
    }

    /** Returns the family's JDBC workloads. */
    public static List<Workload> all() {
        List<Workload> ws = new ArrayList<>();
        ws.add(workload("insert", "each"));
        ws.add(workload("select", "each"));
        ws.add(workload("insert", "executebatch"));
        ws.add(workload("insert", "rewrite"));
        return ws;
    }

    /** Returns row id's v (Go's batchValue). */
    static long value(long id) {
        return id * 31 + 7;
    }

    /** Returns the driver property that rewrites batched INSERTs on db. */
    static String rewriteProperty(Db db) {
        return db == Db.POSTGRES ? "reWriteBatchedInserts" : "rewriteBatchedStatements";
    }

    private static void create(Env e, String base) throws Exception {
        String t = e.dialect().table(base);
        for (String q : List.of("DROP TABLE IF EXISTS " + t,
                "CREATE TABLE " + t + " (id BIGINT PRIMARY KEY NOT NULL, v BIGINT NOT NULL)")) {
            try {
                ClassicWorkloads.exec(e.conn(), q);
            } catch (SQLException ex) {
                throw new Exception("create " + t + ": " + Server.describe(ex), ex);
            }
        }
    }

    private static Workload workload(String op, String path) {
        String id = "Batch/op=" + op + "/path=" + path;
        String base = op.equals("insert") ? INSERTS : SELECTS;
        return new Workload() {
            @Override
            public String name() {
                return id;
            }

            @Override
            public Set<Db> only() {
                return Set.of(Db.MARIADB, Db.POSTGRES);
            }

            @Override
            public void setup(Env e) throws Exception {
                create(e, base);
                if (op.equals("select")) {
                    for (long first = 1; first <= SELECT_ROWS; first += 100) {
                        StringBuilder q = new StringBuilder("INSERT INTO " + e.dialect().table(SELECTS)
                                + " (id, v) VALUES ");
                        for (long r = first; r < first + 100 && r <= SELECT_ROWS; r++) {
                            q.append(r > first ? ", (" : "(").append(r).append(", ").append(value(r)).append(')');
                        }
                        ClassicWorkloads.exec(e.conn(), q.toString());
                    }
                }
            }

            @Override
            public Run begin(Env e) throws Exception {
                return op.equals("insert") ? insertRun(e, path) : selectRun(e);
            }

            @Override
            public void teardown(Env e) throws SQLException {
                ClassicWorkloads.exec(e.conn(), "DROP TABLE IF EXISTS " + e.dialect().table(base));
            }
        };
    }

    private static Workload.Run insertRun(Env e, String path) throws Exception {
        String table = e.dialect().table(INSERTS);
        long base;
        try (Statement st = e.conn().createStatement();
                ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(id), 0) FROM " + table)) {
            rs.next();
            base = rs.getLong(1);
        }
        long total = (long) e.warm() + e.n();
        Connection c = e.conn();
        boolean own = path.equals("rewrite");
        if (own) {
            Properties p = new Properties();
            p.setProperty(rewriteProperty(e.dialect().db()), "true");
            c = e.opener().open(p);
        }
        Connection conn = c;
        PreparedStatement ps = conn.prepareStatement("INSERT INTO " + table + " (id, v) VALUES (?, ?)");
        Workload.Op opr;
        if (path.equals("each")) {
            opr = i -> {
                for (int k = 0; k < SIZE; k++) {
                    long id = base + 1 + (long) i * SIZE + k;
                    ps.setLong(1, id);
                    ps.setLong(2, value(id));
                    ps.executeUpdate();
                }
            };
        } else {
            opr = i -> {
                for (int k = 0; k < SIZE; k++) {
                    long id = base + 1 + (long) i * SIZE + k;
                    ps.setLong(1, id);
                    ps.setLong(2, value(id));
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                if (counts.length != SIZE) {
                    throw new WrongResultException("executeBatch returned " + counts.length + " counts for " + SIZE);
                }
                for (int n : counts) {
                    if (n != 1 && n != Statement.SUCCESS_NO_INFO) {
                        throw new WrongResultException("executeBatch counted " + n + " rows for a one-row INSERT");
                    }
                }
            };
        }
        return new Workload.Run(opr, () -> {
            ps.close();
            if (own) {
                conn.close();
            }
            verify(e.conn(), table, base, total * SIZE);
        });
    }

    /** Reads back the rows above id base: want of them, ids base+1 onwards, each with its value. */
    static void verify(Connection c, String table, long base, long want) throws Exception {
        long next = base + 1;
        long n = 0;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, v FROM " + table + " WHERE id > " + base + " ORDER BY id")) {
            while (rs.next()) {
                long id = rs.getLong(1);
                long v = rs.getLong(2);
                if (id != next || v != value(id)) {
                    throw new WrongResultException("row " + n + " of the run is id " + id + ", v " + v + "; want id "
                            + next + ", v " + value(next));
                }
                next++;
                n++;
            }
        }
        if (n != want) {
            throw new WrongResultException(table + " holds " + n + " rows of the run, want " + want);
        }
    }

    private static Workload.Run selectRun(Env e) throws Exception {
        PreparedStatement ps = e.conn().prepareStatement(
                "SELECT v FROM " + e.dialect().table(SELECTS) + " WHERE id = ?");
        return new Workload.Run(i -> {
            for (int k = 0; k < SIZE; k++) {
                long id = ((long) i * SIZE + k) % SELECT_ROWS + 1;
                ps.setLong(1, id);
                int rows = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long v = rs.getLong(1);
                        if (v != value(id)) {
                            throw new WrongResultException("id " + id + " read v " + v + ", want " + value(id));
                        }
                        rows++;
                    }
                }
                if (rows != 1) {
                    throw new WrongResultException("statement " + k + " of operation " + i + ": " + rows + " rows");
                }
            }
        }, ps::close);
    }
}
