package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The script workload's parts against Go's: the random stream and row hash
 * pinned to the vectors Go's TestCrossRunnerVectors pins, the parser and
 * expressions with Go's results and error texts, and the executor on a
 * real SQLite file through xerial.
 */
class ScriptTest {
    @TempDir
    Path dir;

    @Test
    void splitMix64Reference() {
        ScriptRand r = ScriptRand.ofState(0);
        assertEquals(0xe220a8397b1dcdafL, r.nextLong());
        assertEquals(0x6e789e6aa1b965f4L, r.nextLong());
        assertEquals(0x06c45d188009454fL, r.nextLong());
    }

    @Test
    void crossRunnerVectors() throws Exception {
        ScriptRand r = new ScriptRand(ScriptConn.SEED, 3);
        assertEquals(0x6440fccd04c248a4L, r.nextLong());
        assertEquals(0xd3680ddff8d1e7fcL, r.nextLong());
        r = new ScriptRand(ScriptConn.SEED, 4);
        assertEquals(0.4305719370160036, r.nextDouble());
        assertEquals(578, r.nextLong(1000));
        r = new ScriptRand(ScriptConn.SEED, 5);
        List<Long> uni = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            uni.add(ScriptFunctions.uniform(r, 1, 100000));
        }
        assertEquals(List.of(99122L, 23672L, 12326L, 55627L, 41072L), uni);
        assertEquals(3, ScriptFunctions.exponential(r, 0, 9, 3));
        assertEquals(26, ScriptFunctions.zipfian(r, 1, 1000, 1.1));
        assertEquals(3, ScriptFunctions.gaussian(r, 1, 11, 2.5));
        assertEquals(4797399853982267196L, r.nextLong());
        r = new ScriptRand(ScriptConn.SEED, 6);
        List<Long> zs = new ArrayList<>(), es = new ArrayList<>(), gs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            zs.add(ScriptFunctions.zipfian(r, 1, 100, 1.5));
        }
        for (int i = 0; i < 10; i++) {
            es.add(ScriptFunctions.exponential(r, 0, 99, 5));
        }
        for (int i = 0; i < 10; i++) {
            gs.add(ScriptFunctions.gaussian(r, 0, 99, 2));
        }
        assertEquals(List.of(5L, 1L, 96L, 2L, 3L, 68L, 67L, 1L, 4L, 61L), zs);
        assertEquals(List.of(45L, 5L, 81L, 14L, 13L, 10L, 23L, 2L, 2L, 5L), es);
        assertEquals(List.of(23L, 88L, 70L, 31L, 61L, 68L, 6L, 38L, 31L, 56L), gs);
        Object[] row = {1L, "a", null, 1.5, true, 2.0, "xy".getBytes(), 1e21};
        assertEquals(0xeff047a7cb9cb432L, ScriptConn.rowHash(row));
    }

    @Test
    void goFloatFormat() {
        String[][] cases = {{"0.1", "0.1"}, {"1e21", "1e+21"}, {"1234567.5", "1.2345675e+06"}, {"0.0001", "0.0001"},
            {"0.00001", "1e-05"}, {"123.456", "123.456"}, {"-2.5", "-2.5"}, {"100000", "100000"}, {"1000000", "1e+06"},
            {"1.5e-300", "1.5e-300"}, {"2.82879384806159E17", "2.82879384806159e+17"}, {"5e-324", "5e-324"},
            {"1.7976931348623157e308", "1.7976931348623157e+308"}, {"0.3", "0.3"},
            {"2.2250738585072014E-308", "2.2250738585072014e-308"}};
        for (String[] c : cases) {
            assertEquals(c[1], GoFloat.format(Double.parseDouble(c[0]), 'g'), c[0]);
        }
        assertEquals("3", ScriptConn.canonFloat(3.0));
    }

    private static ScriptValue eval(String expr) throws ScriptException {
        return ScriptExpr.parse(expr, new ScriptExpr.ScriptVars())
                .eval(new ScriptValue[] {ScriptValue.of(1), ScriptValue.of(0)}, new ScriptRand(1, 1));
    }

    @Test
    void expressions() throws Exception {
        assertEquals(ScriptValue.of(7), eval("1 + 2 * 3"));
        assertEquals(ScriptValue.of(-3), eval("-7 / 2"));
        assertEquals(ScriptValue.of(-1), eval("-7 % 2"));
        assertEquals(ScriptValue.ofDouble(3.5), eval("7 / 2.0"));
        assertEquals(ScriptValue.of(1000), eval("int(10000 * :scale / 10)"));
        assertEquals(ScriptValue.of(100), eval("greatest(100, int(10000 * 0.001))"));
        assertEquals(ScriptValue.ofDouble(2), eval("least(3, 2.0, 4)"));
        assertEquals(ScriptValue.of(Long.MIN_VALUE), eval("-9223372036854775808"));
        assertEquals("integer out of range in addition",
                assertThrows(ScriptException.class, () -> eval("9223372036854775807 + 1")).getMessage());
        assertEquals("division by zero", assertThrows(ScriptException.class, () -> eval("1 / 0")).getMessage());
        assertEquals("random: empty range [5, 1]",
                assertThrows(ScriptException.class, () -> eval("random(5, 1)")).getMessage());
        assertEquals("unknown variable :nope",
                assertThrows(ScriptException.class, () -> eval(":nope + 1")).getMessage());
        assertEquals("random takes 2 arguments, got 1",
                assertThrows(ScriptException.class, () -> eval("random(1)")).getMessage());
        assertEquals("unknown function \"rnd\"",
                assertThrows(ScriptException.class, () -> eval("rnd(1)")).getMessage());
    }

    @Test
    void parser() throws Exception {
        String tpcb = Files.readString(Path.of("..", "examples", "scripts", "tpcb.sql"));
        ScriptParser.Script sc = ScriptParser.parse("tpcb.sql", tpcb, 1);
        assertEquals(7, sc.stmts.size());
        ScriptParser.Statement upd = sc.stmts.get(1);
        assertEquals("tpcb.sql:11", upd.label());
        assertEquals("UPDATE accounts SET abalance = abalance + ? WHERE aid = ?", upd.jdbcText());
        assertEquals(ScriptParser.StmtClass.EXEC, upd.cls);
        assertEquals(ScriptParser.StmtClass.ROWS, sc.stmts.get(2).cls);
        assertEquals(ScriptParser.TxOp.BEGIN, sc.stmts.get(0).txOp);
        assertTrue(sc.stmts.get(2).deterministic);
        assertTrue(!sc.stmts.get(5).deterministic, "CURRENT_TIMESTAMP is volatile");
        ScriptParser.Statement lit = ScriptParser.parse("a.sql", "SELECT ':x', 1::int, $$ :y $$;", 1).stmts.get(0);
        assertEquals(0, lit.params.size());
        assertEquals("a.sql:2: unknown variable :x", assertThrows(ScriptException.class,
                () -> ScriptParser.parse("a.sql", "\\set a 1\nSELECT :x;", 1)).getMessage());
        assertEquals("a.sql:1: unterminated quoted text (')", assertThrows(ScriptException.class,
                () -> ScriptParser.parse("a.sql", "SELECT 'x;", 1)).getMessage());
        assertEquals("a.sql:1: unsupported meta-command \\if (sqlbench has \\set and \\sleep)",
                assertThrows(ScriptException.class,
                        () -> ScriptParser.parse("a.sql", "\\if 1\nSELECT 1;", 1)).getMessage());
        assertEquals("a.sql:1: \\set: :scale is set by sqlbench",
                assertThrows(ScriptException.class,
                        () -> ScriptParser.parse("a.sql", "\\set scale 2\nSELECT 1;", 1)).getMessage());
        assertEquals("a.sql:1: no SQL statement in the script",
                assertThrows(ScriptException.class, () -> ScriptParser.parse("a.sql", "-- nothing", 1)).getMessage());
    }

    private static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    private static String spec(String mode, int clients, long timeNanos) {
        String setup = "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL, s TEXT);\n"
                + "INSERT INTO t (id, v, s) VALUES (1, 0, 'a'), (2, 0, 'b'), (3, 0, NULL);\n";
        String script = "\\set id random(1, 3)\n\\set d random(-5, 5)\nBEGIN;\n"
                + "UPDATE t SET v = v + :d WHERE id = :id;\nSELECT id, v, s FROM t WHERE id <= :id;\nCOMMIT;\n";
        return "{\"scripts\":[{\"name\":\"a.sql\",\"text\":" + json(script) + ",\"weight\":2},"
                + "{\"name\":\"b.sql\",\"text\":" + json("SELECT count(*) FROM t;") + "}],"
                + "\"setup\":{\"name\":\"s.sql\",\"text\":" + json(setup) + "},"
                + "\"mode\":\"" + mode + "\",\"clients\":" + clients
                + (timeNanos > 0 ? ",\"time\":" + timeNanos : "") + "}";
    }

    @Test
    void checkOnSQLite() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("check.db");
        List<String> lines;
        try (Connection c = DriverManager.getConnection(url)) {
            lines = new ScriptWorkload(spec("extended", 1, 0), 1).check(c, Dialect.of(Db.SQLITE, "c1"));
        }
        assertEquals(5, lines.size(), lines.toString());
        Pattern p = Pattern.compile("script-check: (\\d) runs=(\\d+) rows=(\\d+) sum=(\\S+) (\\S+)");
        long runsA = 0, runsB = 0;
        for (String l : lines) {
            Matcher m = p.matcher(l);
            assertTrue(m.matches(), l);
            if (m.group(5).startsWith("b.sql")) {
                runsB = Long.parseLong(m.group(2));
                assertEquals(m.group(2), m.group(3), "one row per count(*)");
            } else if (m.group(5).equals("a.sql:4")) {
                runsA = Long.parseLong(m.group(2));
            }
        }
        assertEquals(ScriptConn.CHECK_OPS, runsA + runsB);
        assertTrue(runsA > runsB, "weights 2:1");
        // The same spec, again from a fresh file: the same digest.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("check2.db"))) {
            assertEquals(lines, new ScriptWorkload(spec("simple", 1, 0), 1).check(c, Dialect.of(Db.SQLITE, "c2")));
        }
    }

    private Sample run(String specJson, String file, int n, String[] units) throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve(file);
        try (Connection c = DriverManager.getConnection(url)) {
            ScriptWorkload w = new ScriptWorkload(specJson, 1);
            Env e = new Env(c, Dialect.of(Db.SQLITE, "r"), extra -> DriverManager.getConnection(url, extra), 0, 0);
            w.setup(e);
            Workload.Run r = w.begin(e.forRun(5, n));
            Harness.warm(r, 5);
            Sample s = Harness.measure(r, 5, n, new Histogram(1, Harness.MAX_LATENCY, 3));
            units[0] = r.units().get();
            r.end().end();
            w.teardown(e);
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                assertEquals(3, rs.getInt(1));
            }
            return s;
        }
    }

    @Test
    void runsOnTwoClients() throws Exception {
        for (String mode : List.of("simple", "extended", "prepared")) {
            String[] units = {""};
            Sample s = run(spec(mode, 2, 0), mode + ".db", 60, units);
            assertEquals(60, s.n());
            for (int k = 1; k <= 5; k++) {
                assertTrue(units[0].contains(" stmt" + k + "-p50-ns/op")
                        && units[0].contains(" stmt" + k + "-p99-ns/op"),
                        mode + ": " + units[0]);
            }
        }
    }

    @Test
    void runsForATime() throws Exception {
        String[] units = {""};
        long t0 = System.nanoTime();
        Sample s = run(spec("simple", 2, 300_000_000L), "timed.db", ScriptWorkload.TIMED_OPS, units);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(s.n() > 0 && s.n() < ScriptWorkload.TIMED_OPS, "executions: " + s.n());
        assertTrue(ms >= 300 && ms < 60_000, "took " + ms + " ms");
    }

    @Test
    void badSpecs() {
        assertEquals("no script",
                assertThrows(Exception.class, () -> new ScriptWorkload("{\"scripts\":[]}", 1)).getMessage());
        assertEquals("query mode must be simple, extended or prepared, got \"fast\"", assertThrows(Exception.class,
                () -> new ScriptWorkload("{\"scripts\":[{\"name\":\"a\",\"text\":\"SELECT 1;\"}],\"mode\":\"fast\"}",
                        1)).getMessage());
        assertTrue(assertThrows(Exception.class, () -> new ScriptWorkload("{\"scripts\":", 1)).getMessage()
                .startsWith("script spec: "));
    }
}
