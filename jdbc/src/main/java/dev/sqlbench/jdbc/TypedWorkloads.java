package dev.sqlbench.jdbc;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The typed family (typed rows), as the Go definition in workloads/typed.go:
 * the same tables, SQL and values computed from each row's id, read and
 * written through JDBC's own types. PostgreSQL: timestamptz as
 * OffsetDateTime (setObject/getObject), numeric as BigDecimal, uuid as
 * java.util.UUID, jsonb bound as Types.OTHER (pgjdbc's way to send text to
 * a jsonb parameter). MariaDB: DATETIME(6) as LocalDateTime holding UTC,
 * DECIMAL as BigDecimal, the UUID type as its text, JSON as text. SQLite
 * (xerial): the time as RFC 3339 text (SQLite has no time type), the decimal
 * as text, the UUID as its 16 bytes. Blobs are setBytes/getBytes, nullable
 * columns setNull/wasNull. The decimal is read with getBigDecimal; scan=string
 * reads the JSON and the nullable text with getString, scan=bytes with
 * getBytes (null for NULL).
 * Every row read is checked value by value in the timed loop.
 */
public final class TypedWorkloads {
    static final int ROWS = 1000;
    static final int WIDE = 19;
    private static final Instant EPOCH = Instant.parse("2026-01-02T03:04:05Z");
    private static final long UUID_HIGH = 0x5a1be04c937d4e21L;

    private TypedWorkloads() {
    }

    /** Returns the family in the Go catalogue's order. */
    public static List<Workload> all() {
        return List.of(insert(false), query(false, false), query(false, true), insert(true), query(true, false));
    }

    /** Row id's time: id × 1.000001 s after the epoch. */
    static Instant time(long id) {
        return EPOCH.plus(id * 1_000_001L, ChronoUnit.MICROS);
    }

    /** Row id's decimal text, four places, negative every fifth row. */
    static String amount(long id) {
        long v = id * 7919 + id % 10000;
        return (id % 5 == 0 ? "-" : "") + (v / 10000) + "." + String.format("%04d", v % 10000);
    }

    /** Row id's UUID: a fixed first half, the id in the second. */
    static UUID uuid(long id) {
        return new UUID(UUID_HIGH, id);
    }

    static byte[] uuidBytes(UUID u) {
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
    }

    /** Row id's JSON in jsonb's printed form. */
    static String doc(long id) {
        return "{\"n\": " + id + ", \"ok\": " + (id % 2 == 0) + ", \"tag\": \"item-" + id + "\"}";
    }

    /** Row id's 64 bytes. */
    static byte[] data(long id) {
        byte[] b = new byte[64];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (id * 31 + k * 97L);
        }
        return b;
    }

    /** Row id's nullable text: null every third row. */
    static String note(long id) {
        return id % 3 == 0 ? null : "note " + id;
    }

    /** Whether row id's qty is set (every other row); its value is id × 7. */
    static boolean qtySet(long id) {
        return id % 2 == 1;
    }

    static String ddl(Db db, boolean wide) {
        if (wide) {
            String in = db == Db.SQLITE ? "INTEGER" : "BIGINT";
            String tx = db == Db.SQLITE ? "TEXT" : "VARCHAR(32)";
            String fl = switch (db) {
                case SQLITE -> "REAL";
                case MARIADB -> "DOUBLE";
                case POSTGRES -> "DOUBLE PRECISION";
            };
            List<String> defs = new ArrayList<>();
            for (int k = 1; k <= WIDE; k++) {
                defs.add("w" + k + " " + new String[] {fl, in, tx}[k % 3] + " NOT NULL");
            }
            return String.join(", ", defs);
        }
        return switch (db) {
            case POSTGRES -> "ts TIMESTAMPTZ NOT NULL, amount NUMERIC(18,4) NOT NULL, uid UUID NOT NULL, "
                    + "doc JSONB NOT NULL, data BYTEA NOT NULL, note TEXT, qty BIGINT";
            case MARIADB -> "ts DATETIME(6) NOT NULL, amount DECIMAL(18,4) NOT NULL, uid UUID NOT NULL, "
                    + "doc JSON NOT NULL, data BLOB NOT NULL, note VARCHAR(64), qty BIGINT";
            case SQLITE -> "ts DATETIME NOT NULL, amount TEXT NOT NULL, uid BLOB NOT NULL, doc TEXT NOT NULL, "
                    + "data BLOB NOT NULL, note TEXT, qty INTEGER";
        };
    }

    static List<String> cols(boolean wide) {
        if (!wide) {
            return List.of("ts", "amount", "uid", "doc", "data", "note", "qty");
        }
        List<String> c = new ArrayList<>();
        for (int k = 1; k <= WIDE; k++) {
            c.add("w" + k);
        }
        return c;
    }

    static String base(boolean wide) {
        return wide ? "typedwide" : "typed";
    }

    static String create(Dialect d, boolean wide) {
        String pk = d.db() == Db.SQLITE ? "INTEGER PRIMARY KEY NOT NULL" : "BIGINT PRIMARY KEY NOT NULL";
        String engine = d.db() == Db.MARIADB ? " ENGINE=InnoDB" : "";
        return "CREATE TABLE " + d.table(base(wide)) + " (id " + pk + ", " + ddl(d.db(), wide) + ")" + engine;
    }

    static String insertSql(Dialect d, boolean wide) {
        List<String> cs = cols(wide);
        return "INSERT INTO " + d.table(base(wide)) + " (id, " + String.join(", ", cs) + ") VALUES (?"
                + ", ?".repeat(cs.size()) + ")";
    }

    static String querySql(Dialect d, boolean wide) {
        return "SELECT id, " + String.join(", ", cols(wide)) + " FROM " + d.table(base(wide)) + " ORDER BY id";
    }

    /** Binds row id's values to ps, as JDBC's types on db. */
    static void bind(PreparedStatement ps, Db db, boolean wide, long id) throws SQLException {
        ps.setLong(1, id);
        if (wide) {
            for (int k = 1; k <= WIDE; k++) {
                switch (k % 3) {
                    case 1 -> ps.setLong(k + 1, id * k + k);
                    case 2 -> ps.setString(k + 1, "w" + k + "-" + id);
                    default -> ps.setDouble(k + 1, (double) (id * k) + 0.25);
                }
            }
            return;
        }
        switch (db) {
            case POSTGRES -> {
                ps.setObject(2, OffsetDateTime.ofInstant(time(id), ZoneOffset.UTC));
                ps.setBigDecimal(3, new BigDecimal(amount(id)));
                ps.setObject(4, uuid(id));
                ps.setObject(5, doc(id), Types.OTHER);
            }
            case MARIADB -> {
                ps.setObject(2, LocalDateTime.ofInstant(time(id), ZoneOffset.UTC));
                ps.setBigDecimal(3, new BigDecimal(amount(id)));
                ps.setString(4, uuid(id).toString());
                ps.setString(5, doc(id));
            }
            case SQLITE -> {
                ps.setString(2, time(id).toString());
                ps.setString(3, amount(id));
                ps.setBytes(4, uuidBytes(uuid(id)));
                ps.setString(5, doc(id));
            }
        }
        ps.setBytes(6, data(id));
        String n = note(id);
        if (n == null) {
            ps.setNull(7, Types.VARCHAR);
        } else {
            ps.setString(7, n);
        }
        if (qtySet(id)) {
            ps.setLong(8, id * 7);
        } else {
            ps.setNull(8, Types.BIGINT);
        }
    }

    /** Checks the current row of rs against row want, reading it as JDBC's types on db. */
    static void check(ResultSet rs, Db db, boolean wide, boolean bytes, long want) throws Exception {
        long id = rs.getLong(1);
        if (id != want) {
            throw new WrongResultException("row " + want + " has id " + id + ": out of order or missing");
        }
        String row = base(wide) + " row " + id + ": ";
        if (wide) {
            for (int k = 1; k <= WIDE; k++) {
                switch (k % 3) {
                    case 1 -> {
                        long got = rs.getLong(k + 1);
                        if (got != id * k + k) {
                            throw new WrongResultException(row + "w" + k + " = " + got + ", want " + (id * k + k));
                        }
                    }
                    case 2 -> {
                        String got = rs.getString(k + 1);
                        String w = "w" + k + "-" + id;
                        if (!w.equals(got)) {
                            throw new WrongResultException(row + "w" + k + " = " + got + ", want " + w);
                        }
                    }
                    default -> {
                        double got = rs.getDouble(k + 1);
                        double w = (double) (id * k) + 0.25;
                        if (got != w) {
                            throw new WrongResultException(row + "w" + k + " = " + got + ", want " + w);
                        }
                    }
                }
            }
            return;
        }
        Instant ts = switch (db) {
            case POSTGRES -> rs.getObject(2, OffsetDateTime.class).toInstant();
            case MARIADB -> rs.getObject(2, LocalDateTime.class).toInstant(ZoneOffset.UTC);
            case SQLITE -> Instant.parse(rs.getString(2));
        };
        if (!ts.equals(time(id))) {
            throw new WrongResultException(row + "ts = " + ts + ", want " + time(id));
        }
        // A decimal as JDBC's BigDecimal in both scans: MariaDB Connector/J
        // has no getBytes for a DECIMAL.
        BigDecimal amount = rs.getBigDecimal(3);
        if (amount == null || !amount(id).equals(amount.toPlainString())) {
            throw new WrongResultException(row + "amount = " + amount + ", want " + amount(id));
        }
        UUID u = switch (db) {
            case POSTGRES -> rs.getObject(4, UUID.class);
            case MARIADB -> UUID.fromString(rs.getString(4));
            case SQLITE -> {
                ByteBuffer b = ByteBuffer.wrap(rs.getBytes(4));
                yield b.remaining() == 16 ? new UUID(b.getLong(), b.getLong()) : null;
            }
        };
        if (!uuid(id).equals(u)) {
            throw new WrongResultException(row + "uid = " + u + ", want " + uuid(id));
        }
        String doc = bytes ? utf8(rs.getBytes(5)) : rs.getString(5);
        if (!doc(id).equals(doc)) {
            throw new WrongResultException(row + "doc = " + doc + ", want " + doc(id));
        }
        byte[] data = rs.getBytes(6);
        if (!Arrays.equals(data, data(id))) {
            throw new WrongResultException(row + "data = " + Arrays.toString(data) + ", want "
                    + Arrays.toString(data(id)));
        }
        String note = bytes ? utf8(rs.getBytes(7)) : rs.getString(7);
        String wn = note(id);
        if (wn == null ? note != null : !wn.equals(note)) {
            throw new WrongResultException(row + "note = " + note + ", want " + wn);
        }
        long qty = rs.getLong(8);
        boolean set = !rs.wasNull();
        if (set != qtySet(id) || (set && qty != id * 7)) {
            throw new WrongResultException(row + "qty = " + (set ? qty : "NULL") + ", want "
                    + (qtySet(id) ? id * 7 : "NULL"));
        }
    }

    private static String utf8(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** Reads the whole table through s and checks every row and the count. */
    static void read(Statement s, String q, Db db, boolean wide, boolean bytes, int rows) throws Exception {
        int n = 0;
        try (ResultSet rs = s.executeQuery(q)) {
            while (rs.next()) {
                n++;
                if (n > rows) {
                    throw new WrongResultException("more than " + rows + " rows of " + base(wide));
                }
                check(rs, db, wide, bytes, n);
            }
        }
        if (n != rows) {
            throw new WrongResultException("read " + n + " rows of " + base(wide) + ", want " + rows);
        }
    }

    static void recreate(Env e, boolean wide) throws SQLException {
        ClassicWorkloads.exec(e.conn(), "DROP TABLE IF EXISTS " + e.dialect().table(base(wide)));
        ClassicWorkloads.exec(e.conn(), create(e.dialect(), wide));
    }

    /** Inserts rows 1..n in one transaction. */
    static void fill(Env e, boolean wide, int n) throws Exception {
        recreate(e, wide);
        Connection c = e.conn();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(insertSql(e.dialect(), wide))) {
            for (long id = 1; id <= n; id++) {
                bind(ps, e.dialect().db(), wide, id);
                ps.executeUpdate();
            }
            c.commit();
        } catch (Exception ex) {
            c.rollback();
            throw ex;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private abstract static class Base implements Workload {
        final boolean wide;
        private final String id;

        Base(String id, boolean wide) {
            this.id = id;
            this.wide = wide;
        }

        @Override
        public String name() {
            return id;
        }

        @Override
        public void teardown(Env e) throws Exception {
            ClassicWorkloads.exec(e.conn(), "DROP TABLE IF EXISTS " + e.dialect().table(base(wide)));
        }
    }

    private static Workload insert(boolean wide) {
        return new Base(wide ? "TypedWideInsert" : "TypedInsert", wide) {
            @Override
            public void setup(Env e) {
            }

            @Override
            public Run begin(Env e) throws Exception {
                recreate(e, wide);
                Connection c = e.conn();
                Db db = e.dialect().db();
                String q = insertSql(e.dialect(), wide);
                PreparedStatement[] ps = new PreparedStatement[1];
                boolean[] done = {true};
                End start = () -> {
                    c.setAutoCommit(false);
                    done[0] = false;
                    ps[0] = c.prepareStatement(q);
                };
                End finish = () -> {
                    ps[0].close();
                    ps[0] = null;
                    c.commit();
                    c.setAutoCommit(true);
                    done[0] = true;
                };
                End end = () -> {
                    if (!done[0]) {
                        if (ps[0] != null) {
                            ps[0].close();
                            ps[0] = null;
                        }
                        c.rollback();
                        c.setAutoCommit(true);
                        return;
                    }
                    try (Statement s = c.createStatement()) {
                        read(s, querySql(e.dialect(), wide), db, wide, false, e.warm() + e.n());
                    } catch (WrongResultException ex) {
                        throw new WrongResultException("verify: " + ex.getMessage());
                    }
                };
                return Run.timed(start, i -> {
                    bind(ps[0], db, wide, i + 1L);
                    ps[0].executeUpdate();
                }, finish, end);
            }
        };
    }

    private static Workload query(boolean wide, boolean bytes) {
        String id = wide ? "TypedWideQuery" : "TypedQuery/scan=" + (bytes ? "bytes" : "string");
        return new Base(id, wide) {
            @Override
            public void setup(Env e) throws Exception {
                fill(e, wide, ROWS);
            }

            @Override
            public Run begin(Env e) throws Exception {
                Statement s = e.conn().createStatement();
                String q = querySql(e.dialect(), wide);
                Db db = e.dialect().db();
                return new Run(i -> read(s, q, db, wide, bytes, ROWS), s::close);
            }
        };
    }
}
