package dev.sqlbench.jdbc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Runs a spec's scripts on one JDBC connection (one client), the twin of
 * Go's script.conn. Query modes in JDBC (docs/scripts.md): simple runs a
 * statement without parameters through a plain Statement and one with
 * parameters through a PreparedStatement prepared, run and closed (JDBC has
 * no one-call path with parameters); extended prepares, runs and closes a
 * PreparedStatement every execution; prepared prepares each statement once
 * per connection when a run begins. BEGIN, COMMIT and ROLLBACK go through
 * the connection's autocommit, commit and rollback, as Go's database/sql
 * targets go through BeginTx; other transaction control runs as SQL. Every
 * column of every row is read (getObject) inside the clock.
 */
final class ScriptConn implements AutoCloseable {
    /** Go's script.Seed: execution i draws from stream (SEED, i). */
    static final long SEED = 0x5c41b3L;
    /** The executions of the verification pass (Go's CheckOps). */
    static final int CHECK_OPS = 32;
    /** The longest statement latency the per-statement histograms hold: ten minutes. */
    static final long HIST_MAX = 600_000_000_000L;
    private static final long MAX_SLEEP_NANOS = 60_000_000_000L;

    private final ScriptSpec spec;
    private final List<ScriptParser.Script> scripts;
    private final Connection c;
    private final String mode;
    private final int client;
    private final ScriptValue scale;
    private final List<PreparedStatement[]> prepared = new ArrayList<>();
    private final List<String[]> texts = new ArrayList<>();
    private final List<ScriptValue[]> vars = new ArrayList<>();
    private final int[] offset;
    private Statement plain;
    private boolean inTx;
    final ScriptRand rng = new ScriptRand(0, 0);
    /** Per script and statement latencies, when recording; record says whether this execution records. */
    Histogram[][] hists;
    boolean record;
    /** The digest the verification pass fills, when set. */
    Digest digest;

    ScriptConn(ScriptSpec spec, List<ScriptParser.Script> scripts, Connection c, String mode, int client, double scale)
            throws Exception {
        this.spec = spec;
        this.scripts = scripts;
        this.c = c;
        this.mode = mode;
        this.client = client;
        this.scale = scaleValue(scale);
        this.offset = new int[scripts.size()];
        int off = 0;
        for (int s = 0; s < scripts.size(); s++) {
            ScriptParser.Script sc = scripts.get(s);
            offset[s] = off;
            off += sc.stmts.size();
            String[] t = new String[sc.stmts.size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = sc.stmts.get(i).jdbcText();
            }
            texts.add(t);
            vars.add(new ScriptValue[sc.vars.size()]);
            if (mode.equals("prepared")) {
                PreparedStatement[] ps = new PreparedStatement[t.length];
                prepared.add(ps);
                for (int i = 0; i < t.length; i++) {
                    ScriptParser.Statement st = sc.stmts.get(i);
                    if (st.cls == ScriptParser.StmtClass.TX_CONTROL) {
                        continue;
                    }
                    try {
                        ps[i] = c.prepareStatement(t[i]);
                    } catch (SQLException e) {
                        close();
                        throw new Exception(st.label() + ": prepare: " + Server.describe(e), e);
                    }
                }
            }
        }
    }

    /** :scale, an integer when the scale is whole (Go's scaleValue). */
    static ScriptValue scaleValue(double s) {
        if (s == Math.rint(s) && Math.abs(s) < 0x1p53) {
            return ScriptValue.of((long) s);
        }
        return ScriptValue.ofDouble(s);
    }

    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (PreparedStatement[] ps : prepared) {
            for (PreparedStatement p : ps) {
                if (p != null) {
                    try {
                        p.close();
                    } catch (SQLException e) {
                        first = first == null ? e : first;
                    }
                }
            }
        }
        prepared.clear();
        if (plain != null) {
            plain.close();
            plain = null;
        }
        if (first != null) {
            throw first;
        }
    }

    /** Runs execution i: one script drawn by weight from the execution's own stream. */
    void exec(int i) throws Exception {
        rng.seed(SEED, i);
        int s = 0;
        if (scripts.size() > 1) {
            long n = rng.nextLong(spec.total);
            s = scripts.size() - 1;
            for (int k = 0; k < scripts.size(); k++) {
                if (n < scripts.get(k).weight) {
                    s = k;
                    break;
                }
                n -= scripts.get(k).weight;
            }
        }
        runScript(s);
    }

    /** Runs every command of script s once. */
    void runScript(int s) throws Exception {
        ScriptParser.Script sc = scripts.get(s);
        ScriptValue[] v = vars.get(s);
        v[0] = scale;
        v[1] = ScriptValue.of(client);
        for (ScriptParser.Command cmd : sc.commands) {
            switch (cmd.kind()) {
                case SET -> {
                    try {
                        v[cmd.slot()] = cmd.expr().eval(v, rng);
                    } catch (ScriptException e) {
                        throw new ScriptException(sc.name, cmd.line(), e.getMessage());
                    }
                }
                case SLEEP -> {
                    ScriptValue x;
                    long n;
                    try {
                        x = cmd.expr().eval(v, rng);
                        n = x.toInt();
                    } catch (ScriptException e) {
                        throw new ScriptException(sc.name, cmd.line(), e.getMessage());
                    }
                    if (n < 0 || (double) n * cmd.unit() > MAX_SLEEP_NANOS) {
                        throw new ScriptException(sc.name, cmd.line(), "\\sleep " + x + ": must be 0 to 1m0s");
                    }
                    long ns = n * cmd.unit();
                    Thread.sleep(ns / 1_000_000, (int) (ns % 1_000_000));
                }
                default -> {
                    try {
                        statement(s, cmd.stmt(), v);
                    } catch (ScriptException e) {
                        abort();
                        throw new ScriptException(sc.name, cmd.line(), e.getMessage());
                    } catch (SQLException e) {
                        abort();
                        throw new ScriptException(sc.name, cmd.line(), Server.describe(e));
                    }
                }
            }
        }
        if (inTx) {
            abort();
            throw new ScriptException(sc.name, sc.commands.get(sc.commands.size() - 1).line(),
                    "the script ends inside a transaction (BEGIN without COMMIT)");
        }
    }

    /** Rolls back the transaction a failed execution left open. */
    void abort() {
        if (inTx) {
            inTx = false;
            try {
                c.rollback();
                c.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the execution's own error is the one to report
            }
        }
    }

    private void txControl(ScriptParser.Statement st, String text) throws Exception {
        switch (st.txOp) {
            case BEGIN -> {
                if (inTx) {
                    throw new ScriptException("BEGIN inside a transaction");
                }
                List<String> w = ScriptParser.upperFields(st.sql);
                if (!plainBegin(w)) {
                    throw new ScriptException(String.join(" ", w) + ": the target starts transactions through JDBC's "
                            + "setAutoCommit(false), which has no such options: write a plain BEGIN");
                }
                c.setAutoCommit(false);
                inTx = true;
            }
            case COMMIT, ROLLBACK -> {
                if (!inTx) {
                    throw new ScriptException(st.sql.trim().split("\\s+")[0] + " outside a transaction");
                }
                inTx = false;
                try {
                    if (st.txOp == ScriptParser.TxOp.COMMIT) {
                        c.commit();
                    } else {
                        c.rollback();
                    }
                } finally {
                    c.setAutoCommit(true);
                }
            }
            default -> plain().execute(text);
        }
    }

    private static boolean plainBegin(List<String> w) {
        return switch (w.size()) {
            case 1 -> w.get(0).equals("BEGIN");
            case 2 -> w.get(0).equals("BEGIN") && (w.get(1).equals("TRANSACTION") || w.get(1).equals("WORK"))
                    || w.get(0).equals("START") && w.get(1).equals("TRANSACTION");
            default -> false;
        };
    }

    private Statement plain() throws SQLException {
        if (plain == null) {
            plain = c.createStatement();
        }
        return plain;
    }

    /** Runs one statement with its parameters from v, reading every row of one that returns rows. */
    private void statement(int s, ScriptParser.Statement st, ScriptValue[] v) throws Exception {
        String text = texts.get(s)[st.index];
        long t0 = record ? System.nanoTime() : 0;
        long[] got = {0, 0}; // rows, sum
        boolean rows = st.cls == ScriptParser.StmtClass.ROWS;
        boolean hash = digest != null && st.deterministic;
        if (st.cls == ScriptParser.StmtClass.TX_CONTROL) {
            txControl(st, text);
        } else if (mode.equals("prepared")) {
            PreparedStatement p = prepared.get(s)[st.index];
            runPrepared(p, st, v, rows, hash, got);
        } else if (mode.equals("extended") || !st.params.isEmpty()) {
            try (PreparedStatement p = c.prepareStatement(text)) {
                runPrepared(p, st, v, rows, hash, got);
            }
        } else if (rows) {
            try (ResultSet rs = plain().executeQuery(text)) {
                scan(rs, hash, got);
            }
        } else {
            plain().execute(text);
        }
        if (record) {
            hists[s][st.index].recordValue(Math.min(Math.max(System.nanoTime() - t0, 1), HIST_MAX));
        }
        if (digest != null) {
            digest.add(offset[s] + st.index, got[0], got[1]);
        }
    }

    private static void runPrepared(PreparedStatement p, ScriptParser.Statement st, ScriptValue[] v, boolean rows,
            boolean hash, long[] got) throws SQLException {
        for (int k = 0; k < st.params.size(); k++) {
            ScriptValue x = v[st.params.get(k)];
            if (x.isDouble()) {
                p.setDouble(k + 1, x.f());
            } else {
                p.setLong(k + 1, x.i());
            }
        }
        if (rows) {
            try (ResultSet rs = p.executeQuery()) {
                scan(rs, hash, got);
            }
        } else {
            p.execute();
        }
    }

    /** Reads every column of every row; with hash, adds each row's hash to got[1]. */
    private static void scan(ResultSet rs, boolean hash, long[] got) throws SQLException {
        int n = rs.getMetaData().getColumnCount();
        Object[] vals = new Object[n];
        while (rs.next()) {
            for (int k = 0; k < n; k++) {
                vals[k] = rs.getObject(k + 1);
            }
            got[0]++;
            if (hash) {
                got[1] += rowHash(vals);
            }
        }
    }

    private static final long FNV_OFFSET = 0xcbf29ce484222325L, FNV_PRIME = 0x100000001b3L;

    /** Go's rowHash: FNV-1a 64 over each value's canonical bytes, each followed by a zero byte. */
    static long rowHash(Object[] vals) {
        long h = FNV_OFFSET;
        for (Object v : vals) {
            for (byte b : canon(v)) {
                h ^= b & 0xff;
                h *= FNV_PRIME;
            }
            h *= FNV_PRIME; // the zero byte: h ^= 0 leaves h as is
        }
        return h;
    }

    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    /**
     * Go's canon: numbers in their shortest form (a whole double as an
     * integer), text and bytes as they are, NULL as the byte 0xff, booleans
     * as 1 and 0, times in UTC as RFC 3339 with nanoseconds (a timestamp
     * without a zone read as UTC, as the Go drivers give it).
     */
    static byte[] canon(Object v) {
        String s;
        if (v == null) {
            return new byte[] {(byte) 0xff};
        } else if (v instanceof byte[] b) {
            return b;
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
                || v instanceof BigInteger) {
            s = v.toString();
        } else if (v instanceof Double d) {
            s = canonFloat(d);
        } else if (v instanceof Float f) {
            s = canonFloat(f.doubleValue());
        } else if (v instanceof Boolean b) {
            s = b ? "1" : "0";
        } else if (v instanceof BigDecimal d) {
            s = d.toPlainString();
        } else if (v instanceof Timestamp t) {
            s = rfc3339(t.toLocalDateTime());
        } else if (v instanceof LocalDateTime t) {
            s = rfc3339(t);
        } else if (v instanceof OffsetDateTime t) {
            s = rfc3339(LocalDateTime.ofInstant(t.toInstant(), ZoneOffset.UTC));
        } else if (v instanceof Instant t) {
            s = rfc3339(LocalDateTime.ofInstant(t, ZoneOffset.UTC));
        } else {
            s = v.toString();
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String rfc3339(LocalDateTime t) {
        StringBuilder b = new StringBuilder(RFC3339.format(t));
        int nano = t.getNano();
        if (nano != 0) {
            String f = String.format("%09d", nano).replaceAll("0+$", "");
            b.append('.').append(f);
        }
        return b.append('Z').toString();
    }

    /** Go's canonFloat: a whole double as an integer, else its shortest 'g' form. */
    static String canonFloat(double f) {
        if (f == Math.rint(f) && Math.abs(f) < 0x1p53) {
            return Long.toString((long) f);
        }
        return GoFloat.format(f, 'g');
    }

    /** What the verification pass saw of every statement, Go's script.Digest. */
    static final class Digest {
        final List<ScriptParser.Statement> stmts;
        final long[] runs, rows, sums;

        Digest(List<ScriptParser.Statement> stmts) {
            this.stmts = stmts;
            runs = new long[stmts.size()];
            rows = new long[stmts.size()];
            sums = new long[stmts.size()];
        }

        void add(int n, long r, long sum) {
            runs[n]++;
            rows[n] += r;
            sums[n] += sum;
        }

        /** Returns the reply lines: "script-check: N runs=R rows=W sum=HEX|- LABEL". */
        List<String> lines() {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < runs.length; i++) {
                ScriptParser.Statement st = stmts.get(i);
                String sum = st.deterministic ? Long.toHexString(sums[i]) : "-";
                out.add("script-check: " + (i + 1) + " runs=" + runs[i] + " rows=" + rows[i] + " sum=" + sum + " "
                        + st.label());
            }
            return out;
        }
    }
}
