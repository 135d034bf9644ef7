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
 * BulkInsert (family "bulk"), as workloads/bulkinsert.go: rows of generated
 * text inserted into a table of shape cols × width (c0 .. c{cols-1} TEXT,
 * no key, no index) recreated before each run; one operation is one row;
 * each run reads the table back (count and checksum). The Go paths:
 * prepared (one single-row PreparedStatement per row, one transaction),
 * multirow (INSERTs of 100 rows, the last short batch at the commit), copy
 * (PostgreSQL COPY FROM STDIN through pgjdbc's CopyManager) and load (LOAD
 * DATA LOCAL INFILE streamed from the runner); and JDBC's own: batch
 * (addBatch per row, executeBatch every 100 rows, one transaction) and
 * rewrite (the batch path on a Connector/J connection with
 * rewriteBatchedStatements=true, which sends multi-row INSERTs). The
 * paths that bind values take them from rows generated before the clock:
 * all of a run's rows when they take at most UP_FRONT_BYTES, as the study
 * generated its whole input first, else BLOCK_ROWS at a time with the
 * run's clock paused (Rows), as Go's do; copy and load stream text
 * generated as the driver reads it, as Go's load does.
 */
public final class BulkInsertWorkloads {
    static final String TABLE = "bulk";
    static final int BATCH = 100;
    /** Rows generated at a time, the clock paused (Go's bulkBlockRows), for a run over UP_FRONT_BYTES. */
    static final int BLOCK_ROWS = 4096;
    /**
     * The most memory a run's rows may take to be generated all before the
     * clock (Go's bulkUpFrontBytes, estimated as Go's: each value's bytes
     * and 48 more).
     */
    static final long UP_FRONT_BYTES = 512L << 20;

    private BulkInsertWorkloads() {
    }

    /** A table shape: cols text columns of width bytes. */
    record Shape(int cols, int width) {
        String key() {
            return "shape=" + cols + "x" + width;
        }
    }

    /** Returns every shape × path, in the Go catalogue's order, then JDBC's own paths. */
    public static List<Workload> all() {
        List<Workload> ws = new ArrayList<>();
        for (Shape s : List.of(new Shape(16, 32), new Shape(3, 8))) {
            for (String args : List.of(BYTES, STRING)) {
                ws.add(workload(s, "prepared", args, Set.of(Db.values())));
                ws.add(workload(s, "multirow", args, Set.of(Db.values())));
                if (args.equals(STRING)) {
                    // COPY streams text (TsvStream): no argument is bound, so
                    // there is no byte[] variant to run.
                    ws.add(workload(s, "copy", args, Set.of(Db.POSTGRES)));
                }
            }
            ws.add(workload(s, "load", null, Set.of(Db.MARIADB)));
            ws.add(workload(s, "batch", null, Set.of(Db.values())));
            ws.add(workload(s, "rewrite", null, Set.of(Db.MARIADB)));
        }
        return ws;
    }

    /**
     * The argument types of the paths that bind values (the Go catalogue's
     * args=bytes|string): a byte[] per value (setBytes) or a String
     * (setString).
     */
    static final String BYTES = "bytes", STRING = "string";

    static List<String> columns(int cols) {
        List<String> c = new ArrayList<>();
        for (int i = 0; i < cols; i++) {
            c.add("c" + i);
        }
        return c;
    }

    static String insertSql(String table, int cols, int rows) {
        StringBuilder b = new StringBuilder(
                "INSERT INTO " + table + " (" + String.join(", ", columns(cols)) + ") VALUES ");
        for (int r = 0; r < rows; r++) {
            b.append(r > 0 ? ", (" : "(");
            for (int c = 0; c < cols; c++) {
                b.append(c > 0 ? ", ?" : "?");
            }
            b.append(')');
        }
        return b.toString();
    }

    /** Rows per multi-row INSERT: 100, or fewer if the database's parameter limit says so. */
    static int batchRows(Db db, int cols) {
        int max = db == Db.SQLITE ? 32766 : 65535;
        return Math.max(1, Math.min(BATCH, max / cols));
    }

    private static Workload workload(Shape s, String path, String args, Set<Db> only) {
        String id = "BulkInsert/" + s.key() + "/path=" + path + (args == null ? "" : "/args=" + args);
        boolean bytes = BYTES.equals(args);
        return new Workload() {
            @Override
            public String name() {
                return id;
            }

            @Override
            public Set<Db> only() {
                return only;
            }

            @Override
            public void setup(Env e) {
                // each run creates its table
            }

            @Override
            public Run begin(Env e) throws Exception {
                return new BulkRun(e, s, path, bytes).run();
            }

            @Override
            public void teardown(Env e) throws SQLException {
                ClassicWorkloads.exec(e.conn(), "DROP TABLE IF EXISTS " + e.dialect().table(TABLE));
            }
        };
    }

    /** One run of one path: the recreated table, the transaction, the statements and the check at the end. */
    private static final class BulkRun {
        final Env e;
        final Shape s;
        final String path, table;
        final boolean bytes;
        final long total;
        Connection conn; // the connection that writes: the cell's, or rewrite's own
        boolean ownConn, tx, committed;
        final List<PreparedStatement> stmts = new ArrayList<>();
        Rows rows; // the generated input of the paths that bind values

        BulkRun(Env e, Shape s, String path, boolean bytes) {
            this.e = e;
            this.s = s;
            this.path = path;
            this.bytes = bytes;
            this.table = e.dialect().table(TABLE);
            this.total = (long) e.warm() + e.n();
        }

        Workload.Run run() throws Exception {
            StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (");
            for (int c = 0; c < s.cols; c++) {
                ddl.append(c > 0 ? ", c" : "c").append(c).append(" TEXT");
            }
            ddl.append(')');
            for (String q : List.of("DROP TABLE IF EXISTS " + table, ddl.toString())) {
                try {
                    ClassicWorkloads.exec(e.conn(), q);
                } catch (SQLException ex) {
                    throw new Exception("create " + table + ": " + Server.describe(ex), ex);
                }
            }
            conn = e.conn();
            double payload = s.cols * s.width;
            try {
                switch (path) {
                    case "copy":
                        return new Workload.Run(null, null, this::copy, null, this::end, payload);
                    case "load":
                        return new Workload.Run(null, null, this::load, null, this::end, payload);
                    case "rewrite":
                        Properties p = new Properties();
                        p.setProperty("rewriteBatchedStatements", "true");
                        conn = e.opener().open(p);
                        ownConn = true;
                        break;
                    default:
                        break;
                }
                conn.setAutoCommit(false);
                tx = true;
                rows = new Rows(s, bytes, total);
                switch (path) {
                    case "prepared": {
                        PreparedStatement ps = prepare(insertSql(table, s.cols, 1));
                        return new Workload.Run(i -> {
                            rows.hold(i);
                            for (int c = 0; c < s.cols; c++) {
                                bind(ps, c + 1, i, c);
                            }
                            ps.executeUpdate();
                        }, null, null, this::commit, this::end, payload, rows.timer);
                    }
                    case "multirow":
                        return multirow(payload);
                    default: // batch, rewrite
                        return batch(payload);
                }
            } catch (Exception ex) {
                try {
                    end();
                } catch (Exception ignored) {
                    // the set-up error is the one to report
                }
                throw ex;
            }
        }

        /** Binds the value of row i (held by rows) at column c as the run's argument type. */
        void bind(PreparedStatement ps, int index, long i, int c) throws SQLException {
            if (bytes) {
                ps.setBytes(index, rows.bytes(i, c));
            } else {
                ps.setString(index, rows.string(i, c));
            }
        }

        PreparedStatement prepare(String sql) throws Exception {
            try {
                PreparedStatement ps = conn.prepareStatement(sql);
                stmts.add(ps);
                return ps;
            } catch (SQLException ex) {
                throw new Exception("prepare: " + Server.describe(ex), ex);
            }
        }

        Workload.Run multirow(double payload) throws Exception {
            int batch = batchRows(e.dialect().db(), s.cols);
            PreparedStatement full = prepare(insertSql(table, s.cols, batch));
            int tailRows = (int) (total % batch);
            PreparedStatement tail = tailRows > 0 ? prepare(insertSql(table, s.cols, tailRows)) : null;
            int[] pending = {0};
            Workload.Batch b = (first, n) -> {
                for (long i = first; i < (long) first + n; i++) {
                    rows.hold(i);
                    for (int c = 0; c < s.cols; c++) {
                        bind(full, pending[0] * s.cols + c + 1, i, c);
                    }
                    if (++pending[0] == batch) {
                        pending[0] = 0;
                        try {
                            full.executeUpdate();
                        } catch (SQLException ex) {
                            throw new Exception("insert up to row " + i + ": " + Server.describe(ex), ex);
                        }
                    }
                }
            };
            Workload.End finish = () -> {
                if (pending[0] > 0) {
                    // The last rows, in the statement prepared for them: copy
                    // their values over (the rows are those of the full one).
                    PreparedStatement st = tail;
                    if (pending[0] != tailRows) {
                        st = prepare(insertSql(table, s.cols, pending[0]));
                    }
                    long firstRow = total - pending[0];
                    for (int r = 0; r < pending[0]; r++) {
                        rows.hold(firstRow + r);
                        for (int c = 0; c < s.cols; c++) {
                            bind(st, r * s.cols + c + 1, firstRow + r, c);
                        }
                    }
                    pending[0] = 0;
                    try {
                        st.executeUpdate();
                    } catch (SQLException ex) {
                        throw new Exception("insert the last rows: " + Server.describe(ex), ex);
                    }
                }
                commit();
            };
            return new Workload.Run(null, null, b, finish, this::end, payload, rows.timer);
        }

        Workload.Run batch(double payload) throws Exception {
            PreparedStatement ps = prepare(insertSql(table, s.cols, 1));
            int[] pending = {0};
            Workload.Batch b = (first, n) -> {
                for (long i = first; i < (long) first + n; i++) {
                    rows.hold(i);
                    for (int c = 0; c < s.cols; c++) {
                        ps.setString(c + 1, rows.string(i, c));
                    }
                    ps.addBatch();
                    if (++pending[0] == BATCH) {
                        pending[0] = 0;
                        try {
                            ps.executeBatch();
                        } catch (SQLException ex) {
                            throw new Exception("insert up to row " + i + ": " + Server.describe(ex), ex);
                        }
                    }
                }
            };
            Workload.End finish = () -> {
                if (pending[0] > 0) {
                    pending[0] = 0;
                    try {
                        ps.executeBatch();
                    } catch (SQLException ex) {
                        throw new Exception("insert the last rows: " + Server.describe(ex), ex);
                    }
                }
                commit();
            };
            return new Workload.Run(null, null, b, finish, this::end, payload, rows.timer);
        }

        void copy(int first, int n) throws Exception {
            org.postgresql.copy.CopyManager cm = conn.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
            long got;
            try {
                got = cm.copyIn("COPY " + table + " (" + String.join(", ", columns(s.cols)) + ") FROM STDIN",
                        new TsvStream(s.cols, s.width, first, n), 1 << 16);
            } catch (SQLException ex) {
                throw new Exception("copy: " + Server.describe(ex), ex);
            }
            if (got != n) {
                throw new WrongResultException("copy stored " + got + " rows, want " + n);
            }
        }

        void load(int first, int n) throws Exception {
            String sql = "LOAD DATA LOCAL INFILE 'sqlbench.tsv' INTO TABLE " + table
                    + " FIELDS TERMINATED BY '\\t' LINES TERMINATED BY '\\n' ("
                    + String.join(", ", columns(s.cols)) + ")";
            long got;
            try (Statement st = conn.createStatement()) {
                TsvStream in = new TsvStream(s.cols, s.width, first, n);
                if (st.isWrapperFor(com.mysql.cj.jdbc.JdbcStatement.class)) {
                    st.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(in);
                } else {
                    st.unwrap(org.mariadb.jdbc.Statement.class).setLocalInfileInputStream(in);
                }
                got = st.executeLargeUpdate(sql);
            } catch (SQLException ex) {
                throw new Exception("load data: " + Server.describe(ex), ex);
            }
            if (got != n) {
                throw new WrongResultException("load data stored " + got + " rows, want " + n);
            }
        }

        void closeStmts() throws SQLException {
            SQLException first = null;
            for (PreparedStatement ps : stmts) {
                try {
                    ps.close();
                } catch (SQLException ex) {
                    first = first == null ? ex : first;
                }
            }
            stmts.clear();
            if (first != null) {
                throw first;
            }
        }

        /** Closes the statements and commits: the timed end of a transaction path. */
        void commit() throws Exception {
            try {
                closeStmts();
            } catch (SQLException ex) {
                throw new Exception("close statements: " + Server.describe(ex), ex);
            }
            try {
                conn.commit();
            } catch (SQLException ex) {
                throw new Exception("commit: " + Server.describe(ex), ex);
            }
            committed = true;
        }

        /** Releases a run that failed before its commit, or verifies one that finished. */
        void end() throws Exception {
            try {
                if (tx && !committed) {
                    closeStmts();
                    conn.rollback();
                    return;
                }
            } finally {
                if (tx) {
                    conn.setAutoCommit(true);
                }
                if (ownConn) {
                    conn.close();
                }
            }
            verify(e.conn(), e.dialect().db(), table, total, s.cols, s.width);
        }
    }

    /**
     * The generated input of a run of total rows, as Strings or as byte
     * arrays: all of them before the clock starts when they fit
     * UP_FRONT_BYTES, else one block of BLOCK_ROWS rows at a time, the
     * first generated before the clock starts and each next one with the
     * clock (timer) paused, as Go's bulkBlock.
     */
    static final class Rows {
        final Timer timer = new Timer();
        private final Shape s;
        private final long total;
        private final int block;
        private final String[] strings;
        private final byte[][] bytes;
        private long first = -1;
        private int held;

        Rows(Shape s, boolean asBytes, long total) {
            this(s, asBytes, total, UP_FRONT_BYTES);
        }

        /** Rows with an up-front budget of budget bytes instead of UP_FRONT_BYTES. */
        Rows(Shape s, boolean asBytes, long total, long budget) {
            this.s = s;
            this.total = total;
            block = total * s.cols * (s.width + 48L) <= budget ? (int) Math.max(1, total) : BLOCK_ROWS;
            int size = (int) Math.min(block, Math.max(1, total)) * s.cols;
            strings = asBytes ? null : new String[size];
            bytes = asBytes ? new byte[size][] : null;
            fill(0);
        }

        /** Makes row i's block the one held, generating it with the clock paused if it is not. */
        void hold(long i) {
            if (i < first || i >= first + held) {
                timer.stop();
                fill(i);
                timer.start();
            }
        }

        private void fill(long from) {
            first = from;
            held = (int) Math.min(block, Math.max(1, total - from));
            for (int r = 0; r < held; r++) {
                for (int c = 0; c < s.cols; c++) {
                    String v = DataGen.value(from + r, c, s.cols, s.width);
                    if (strings != null) {
                        strings[r * s.cols + c] = v;
                    } else {
                        bytes[r * s.cols + c] = v.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                    }
                }
            }
        }

        /** Returns the value of row i (in the held block) at column c as a String. */
        String string(long i, int c) {
            return strings[(int) (i - first) * s.cols + c];
        }

        /** Returns the value of row i (in the held block) at column c as bytes. */
        byte[] bytes(long i, int c) {
            return bytes[(int) (i - first) * s.cols + c];
        }
    }

    /**
     * Checks that table holds exactly the generated rows [0, rows): its count,
     * and the checksum of every row read back, streamed a batch of rows at a
     * time (each driver's way of not holding the whole result).
     */
    static void verify(Connection c, Db db, String table, long rows, int cols, int width) throws Exception {
        long count;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            count = rs.getLong(1);
        } catch (SQLException ex) {
            throw new Exception("count " + table + ": " + Server.describe(ex), ex);
        }
        if (count != rows) {
            throw new WrongResultException(table + " holds " + count + " rows, want " + rows);
        }
        boolean pg = db == Db.POSTGRES;
        if (pg) {
            c.setAutoCommit(false); // pgjdbc streams with a fetch size only inside a transaction
        }
        DataGen.Checksum got = new DataGen.Checksum(0, 0);
        try (Statement st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(c.getClass().getName().startsWith("com.mysql") ? Integer.MIN_VALUE : 10_000);
            try (ResultSet rs = st.executeQuery("SELECT " + String.join(", ", columns(cols)) + " FROM " + table)) {
                long sum = 0, n = 0;
                while (rs.next()) {
                    DataGen.RowHasher h = new DataGen.RowHasher();
                    for (int k = 1; k <= cols; k++) {
                        h.add(rs.getString(k));
                    }
                    sum += h.sum();
                    n++;
                }
                got = new DataGen.Checksum(n, sum);
            }
        } catch (SQLException ex) {
            throw new Exception("read back " + table + ": " + Server.describe(ex), ex);
        } finally {
            if (pg) {
                c.commit();
                c.setAutoCommit(true);
            }
        }
        DataGen.Checksum want = DataGen.generatedChecksum(0, rows, cols, width);
        if (!got.equals(want)) {
            throw new WrongResultException(String.format(
                    "%s read back wrong: %d rows with checksum %#x, want %d rows with checksum %#x",
                    table, got.rows(), got.sum(), want.rows(), want.sum()));
        }
    }
}
