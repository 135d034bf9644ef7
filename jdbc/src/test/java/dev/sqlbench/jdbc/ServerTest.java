package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner end to end on sqlite-jdbc: protocol in, result lines out. */
class ServerTest {
    @TempDir
    Path dir;

    private ByteArrayOutputStream out, log;
    private Server server;
    private String db;

    @BeforeEach
    void start() {
        startWith(new JitWarmup(0, 0, 0));
        db = dir.resolve("t.db").toString();
    }

    /** Replaces the server with one whose JIT warm-up is jit. */
    private void startWith(JitWarmup jit) {
        out = new ByteArrayOutputStream();
        log = new ByteArrayOutputStream();
        server = new Server(new BufferedReader(new StringReader("")),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(log, true, StandardCharsets.UTF_8),
                jit);
    }

    /** Sends one request and returns the answer's lines, status line last. */
    private String[] ask(String line) {
        out.reset();
        server.respond(line);
        return out.toString(StandardCharsets.UTF_8).split("\n");
    }

    private String run(String workload, String scope, int n) {
        return "run target=jdbc-sqlite&db=sqlite&dsn=" + db + "&workload=" + workload + "&scope=" + scope
                + "&name=" + workload + "%2Fdb%3Dsqlite%2Fdriver%3Dxerial%2Fapi%3Djdbc&n=" + n + "&warmup=10";
    }

    @Test
    void helloDeclaresTheTargetsWithTheirCapabilitiesAndEveryWorkload() {
        String[] a = ask("hello");
        assertEquals("runner-protocol: 3", a[0]);
        assertEquals("runner-target: jdbc-mysql batch,context,load,rewrite", a[1]);
        assertEquals("runner-target: jdbc-mariadb batch,context,load", a[2]);
        assertEquals("runner-target: jdbc-postgres batch,context,copy,rewrite", a[3]);
        assertEquals("runner-target: jdbc-sqlite batch", a[4]);
        assertEquals("runner-target: jdbc-pg-hikari pool", a[5]);
        assertEquals("runner-target: jdbc-mariadb-hikari pool", a[6]);
        List<String> declared = new ArrayList<>();
        for (int i = 7; i < a.length - 1; i++) {
            assertTrue(a[i].startsWith("runner-workload: "), a[i]);
            declared.add(a[i].substring("runner-workload: ".length()));
        }
        List<String> want = new ArrayList<>(Workloads.all().stream().map(Workload::name).toList());
        want.add(ScriptWorkload.NAME); // built from each request's spec
        assertEquals(want, declared);
        assertEquals(declared.size(), Set.copyOf(declared).size(), "a workload declared twice");
        assertTrue(declared.contains("SimpleQuery") && declared.contains("BulkInsert/shape=3x8/path=rewrite"),
                declared.toString());
        assertEquals("--- ok", a[a.length - 1]);
    }

    @Test
    void everyDeclaredWorkloadIsOneTheServerRuns() throws Exception {
        for (Workload w : Workloads.all()) {
            assertEquals(w, Workloads.lookup(w.name()));
            assertFalse(w.name().contains(" ") || w.name().contains(","), w.name());
        }
    }

    @Test
    void scriptRunsAndChecksThroughTheProtocol() {
        String spec = java.net.URLEncoder.encode("{\"scripts\":[{\"name\":\"a.sql\",\"text\":"
                + "\"\\\\set id random(1, 3)\\nSELECT id, v FROM t WHERE id <= :id;\"}],"
                + "\"setup\":{\"name\":\"s.sql\",\"text\":\"CREATE TABLE t (id INTEGER, v TEXT);"
                + " INSERT INTO t VALUES (1, 'a'), (2, NULL), (3, 'c');\"},\"clients\":2}", StandardCharsets.UTF_8);
        String[] a = ask("check target=jdbc-sqlite&db=sqlite&dsn=" + dir.resolve("c.db") + "&scope=k&script=" + spec);
        assertEquals(2, a.length, String.join("\n", a));
        assertTrue(a[0].matches("script-check: 1 runs=32 rows=\\d+ sum=[0-9a-f]+ a.sql:2"), a[0]);
        assertEquals("--- ok", a[1]);
        String[] r = ask(run("Script", "s", 40) + "&script=" + spec);
        assertEquals(2, r.length, String.join("\n", r));
        assertTrue(r[0].startsWith("BenchmarkScript/db=sqlite/driver=xerial/api=jdbc 40 "), r[0]);
        assertTrue(r[0].contains(" stmt1-p50-ns/op") && r[0].contains(" stmt1-p99-ns/op"), r[0]);
        assertEquals("--- FAIL: workload Script needs its spec (script=)", ask(run("Script", "t", 10))[0]);
        assertTrue(ask("check target=jdbc-sqlite&db=sqlite&dsn=" + db + "&scope=k&script="
                + java.net.URLEncoder.encode("{\"scripts\":[{\"name\":\"b.sql\",\"text\":\"SELECT :x;\"}]}",
                StandardCharsets.UTF_8))[0].equals("--- FAIL: b.sql:1: unknown variable :x"));
    }

    @Test
    void infoReportsTheDriverTheLibraryAndTheJvm() {
        String all = String.join("\n", ask("info target=jdbc-sqlite&db=sqlite&dsn=" + db));
        assertTrue(all.contains("jdbc-sqlite-module: org.xerial:sqlite-jdbc 3."), all);
        assertTrue(all.contains("jdbc-sqlite-sqlite: 3."), all);
        assertTrue(all.contains("jdbc-jvm: "), all);
        assertTrue(all.contains("jdbc-jvm-flags: "), all);
        assertTrue(all.endsWith("--- ok"), all);
    }

    @Test
    void singleInsertWritesAndVerifiesOnEveryVariantOverACellsRuns() throws Exception {
        int scope = 20;
        for (Workload w : SingleInsertWorkloads.all()) {
            // Two runs of one cell: the second inserts into the first's
            // table and checks its own rows only.
            for (int run = 0; run < 2; run++) {
                String[] a = ask(run(w.name().replace("/", "%2F").replace("=", "%3D"), "c" + scope, 50));
                assertEquals(2, a.length, String.join("\n", a));
                assertTrue(a[0].startsWith("Benchmark" + w.name() + "/db=sqlite/driver=xerial/api=jdbc 50 "), a[0]);
                assertSplit(a[0]);
            }
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sqlbench_c" + scope + "_single")) {
                rs.next();
                assertEquals(120, rs.getInt(1), w.name() + ": rows of two runs of 10 + 50");
            }
            assertEquals("--- ok", ask("close target=jdbc-sqlite&scope=c" + scope)[0]);
            scope++;
        }
        // The check catches a row too many.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute(SingleInsertWorkloads.ddl(Dialect.of(Db.SQLITE, "x"), "t"));
            String f = SingleInsertWorkloads.FIXED;
            s.execute("INSERT INTO t (FieldA) VALUES ('" + f + "'), ('" + f + "')");
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(WrongResultException.class,
                    () -> SingleInsertWorkloads.verify(c, "t", 0, new String[] {f}));
            assertTrue(e.getMessage().startsWith("t holds 2 new rows (checksum "), e.getMessage());
            SingleInsertWorkloads.verify(c, "t", 1, new String[] {f});
        }
    }

    @Test
    void bulkInsertPathsWriteAndVerifyOnSqlite() throws Exception {
        int scope = 40;
        for (Workload w : BulkInsertWorkloads.all()) {
            if (!w.only().contains(Db.SQLITE)) {
                continue;
            }
            String[] a = ask(run(w.name().replace("/", "%2F").replace("=", "%3D"), "c" + scope, 345));
            assertEquals(2, a.length, String.join("\n", a));
            assertTrue(a[0].startsWith("Benchmark" + w.name() + "/db=sqlite/driver=xerial/api=jdbc 345 "), a[0]);
            assertTrue(a[0].contains(" MB/s"), a[0]);
            assertEquals(w.name().contains("path=prepared"), a[0].contains("p99-ns/op"), a[0]);
            assertEquals("--- ok", ask("close target=jdbc-sqlite&scope=c" + scope)[0]);
            scope++;
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE b (c0 TEXT, c1 TEXT, c2 TEXT)");
            s.execute("INSERT INTO b VALUES ('" + DataGen.value(0, 0, 3, 8) + "', '" + DataGen.value(0, 1, 3, 8)
                    + "', '" + DataGen.value(0, 2, 3, 8) + "')");
            BulkInsertWorkloads.verify(c, Db.SQLITE, "b", 1, 3, 8);
            s.execute("UPDATE b SET c1 = 'x'");
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(WrongResultException.class,
                    () -> BulkInsertWorkloads.verify(c, Db.SQLITE, "b", 1, 3, 8));
            assertTrue(e.getMessage().startsWith("b read back wrong: 1 rows with checksum "), e.getMessage());
        }
    }

    @Test
    void tsvStreamMatchesTheGeneratedRows() throws Exception {
        byte[] all = new TsvStream(3, 8, 5, 2).readAllBytes();
        String want = DataGen.value(5, 0, 3, 8) + "\t" + DataGen.value(5, 1, 3, 8) + "\t"
                + DataGen.value(5, 2, 3, 8) + "\n"
                + DataGen.value(6, 0, 3, 8) + "\t" + DataGen.value(6, 1, 3, 8) + "\t"
                + DataGen.value(6, 2, 3, 8) + "\n";
        assertEquals(want, new String(all, StandardCharsets.US_ASCII));
    }

    @Test
    void everyClassicWorkloadRunsAndVerifies() {
        int scope = 0;
        for (Workload w : ClassicWorkloads.all()) {
            if (!w.only().contains(Db.SQLITE)) {
                assertEquals("--- FAIL: workload " + w.name() + " does not run on sqlite",
                        ask(run(w.name(), "s" + scope, 10))[0]);
                continue;
            }
            for (int r = 0; r < 2; r++) { // the cell stays open between runs
                String[] a = ask(run(w.name(), "c" + scope, 250));
                assertEquals(2, a.length, String.join("\n", a));
                assertTrue(a[0].startsWith("Benchmark" + w.name() + "/db=sqlite/driver=xerial/api=jdbc 250 "), a[0]);
                for (String unit : new String[] {"ns/op", "ops/s", "B/op", "p50-ns/op", "p99-ns/op", "p99.9-ns/op"}) {
                    assertTrue(a[0].contains(" " + unit), unit + " missing: " + a[0]);
                }
                assertFalse(a[0].contains("allocs/op"));
                assertSplit(a[0]);
                assertEquals("--- ok", a[1]);
            }
            assertEquals("--- ok", ask("close target=jdbc-sqlite&scope=c" + scope)[0]);
            scope++;
        }
    }

    /**
     * Checks where the time of a SQLite result line went: on-CPU, run-queue
     * and blocked, none negative, add up to ns/op within 1%; background
     * CPU is there, no server's CPU and none of the old units.
     */
    private static void assertSplit(String line) {
        String[] f = line.split(" ");
        java.util.Map<String, Double> u = new java.util.HashMap<>();
        for (int i = 3; i < f.length; i += 2) {
            assertEquals(null, u.put(f[i], Double.parseDouble(f[i - 1])), "unit twice: " + line);
        }
        double sum = 0;
        for (String k : List.of("oncpu-ns/op", "runq-ns/op", "blocked-ns/op", "bg-cpu-ns/op")) {
            assertTrue(u.containsKey(k) && u.get(k) >= 0, k + ": " + line);
            sum += k.startsWith("bg-") ? 0 : u.get(k);
        }
        assertEquals(u.get("ns/op"), sum, u.get("ns/op") * 0.01, line);
        for (String k : List.of("server-cpu-ns/op", "client-cpu-ns/op", "wait-ns/op")) {
            assertFalse(u.containsKey(k), k + ": " + line);
        }
    }

    /** Decodes a latency-hdr line back into its histogram. */
    private static Histogram decodeHdr(String line) throws Exception {
        assertTrue(line.startsWith("latency-hdr: "), line);
        byte[] b = Base64.getDecoder().decode(line.substring("latency-hdr: ".length()));
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(b), 0);
    }

    /** Returns how many latencies the harness samples in n operations on one thread (fixed by n). */
    private static long sampledIn(int n) throws Exception {
        return Harness.measure(new Workload.Run(i -> { }), 0, n, Harness.newHistogram()).latency().getTotalCount();
    }

    /** Returns the value before unit in a result line. */
    private static long valueOf(String line, String unit) {
        String[] f = line.split(" ");
        for (int i = 1; i < f.length; i++) {
            if (f[i].equals(unit)) {
                return Long.parseLong(f[i - 1]);
            }
        }
        throw new AssertionError(unit + " missing: " + line);
    }

    @Test
    void everySliceOfARunAnswersWithItsOwnSample() throws Exception {
        String prefix = "BenchmarkSimpleExec/db=sqlite/driver=xerial/api=jdbc ";
        int[][] steps = {{1, 1, 40}, {2, 1, 40}, {1, 2, 40}, {1, 3, 41}}; // run, slice, n: runs interleave
        for (int[] st : steps) {
            String[] a = ask(run("SimpleExec", "c9", st[2]) + "&run=" + st[0] + "&slice=" + st[1] + "&slices=3");
            assertEquals(3, a.length, String.join("\n", a));
            assertTrue(a[1].startsWith(prefix + st[2] + " "), a[1]); // the slice's own n
            assertEquals("--- ok", a[2]);
            Histogram h = decodeHdr(a[0]);
            assertEquals(sampledIn(st[2]), h.getTotalCount(), a[0]);
            assertEquals(Harness.MAX_LATENCY, h.getHighestTrackableValue());
            assertEquals(3, h.getNumberOfSignificantValueDigits());
            // The line's percentiles are the histogram's: both are the slice's alone.
            assertEquals(h.getValueAtPercentile(50), valueOf(a[1], "p50-ns/op"), a[1]);
            assertEquals(h.getValueAtPercentile(99), valueOf(a[1], "p99-ns/op"), a[1]);
            assertEquals(h.getValueAtPercentile(99.9), valueOf(a[1], "p99.9-ns/op"), a[1]);
        }
    }

    @Test
    void aSliceKeepsNoStateOfItsRun() throws Exception {
        String base = run("PreparedQuery", "c8", 30);
        // Slice 3 of 5 without 1 and 2 (a resumed session), again, then out of order.
        for (String slice : new String[] {"&run=1&slice=3&slices=5", "&run=1&slice=3&slices=5",
                "&run=1&slice=5&slices=5", "&run=1&slice=1&slices=5"}) {
            String[] a = ask(base + slice);
            assertEquals(3, a.length, String.join("\n", a));
            assertEquals(sampledIn(30), decodeHdr(a[0]).getTotalCount());
            assertTrue(a[1].startsWith("BenchmarkPreparedQuery/db=sqlite/driver=xerial/api=jdbc 30 "), a[1]);
            assertEquals("--- ok", a[2]);
        }
    }

    @Test
    void aWholeRunAnswersWithItsResultLineAlone() {
        for (String whole : new String[] {"", "&run=1&slice=1&slices=1"}) {
            String[] a = ask(run("SimpleExec", "c7", 25) + whole);
            assertEquals(2, a.length, String.join("\n", a));
            assertTrue(a[0].startsWith("BenchmarkSimpleExec/db=sqlite/driver=xerial/api=jdbc 25 "), a[0]);
            assertEquals("--- ok", a[1]);
        }
    }

    @Test
    void aSliceOfABatchRunHasNoLatencyHdr() {
        String w = "BulkInsert%2Fshape%3D3x8%2Fpath%3Dbatch";
        String[] a = ask(run(w, "c6", 120) + "&run=1&slice=2&slices=4");
        assertEquals(2, a.length, String.join("\n", a));
        assertTrue(a[0].startsWith("BenchmarkBulkInsert/shape=3x8/path=batch/db=sqlite/driver=xerial/api=jdbc 120 "),
                a[0]);
        assertFalse(a[0].contains("p50-ns/op"), a[0]);
        assertEquals("--- ok", a[1]);
    }

    @Test
    void theJitWarmUpPrecedesACellsFirstSliceOnly() throws Exception {
        startWith(new JitWarmup(100, 0, 10_000));
        String base = run("SimpleExec", "c5", 20);
        for (int slice : new int[] {2, 3, 1}) {
            String[] a = ask(base + "&run=1&slice=" + slice + "&slices=3");
            assertEquals("--- ok", a[a.length - 1], String.join("\n", a));
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        assertEquals(1, logged.split("jit warm-up of SimpleExec", -1).length - 1, logged);
        assertTrue(logged.indexOf("jit warm-up")
                < logged.indexOf("ran SimpleExec on jdbc-sqlite (run 1, slice 2 of 3)"), logged);
    }

    @Test
    void wrongDataFailsTheRunAndClosesTheCell() throws Exception {
        assertEquals("--- ok", ask(run("PreparedQuery", "c0", 20))[1]);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("UPDATE sqlbench_c0_test SET number=142 WHERE number=42");
        }
        String[] a = ask(run("PreparedQuery", "c0", 20));
        assertEquals(1, a.length);
        assertEquals("--- FAIL: warm-up: operation 0: wrong row number 142", a[0]);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_master WHERE name LIKE 'sqlbench%'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "the failed cell's table was not dropped");
        }
    }

    @Test
    void aLookupOfAMissingRowFails() throws Exception {
        assertEquals("--- ok", ask(run("SimpleQueryRow", "c1", 5))[1]);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("DELETE FROM sqlbench_c1_test WHERE number=3");
        }
        // The run's first operations are warm-up: 10 of them, the fourth looks up number 3.
        assertEquals("--- FAIL: warm-up: operation 3: query returned no rows", ask(run("SimpleQueryRow", "c1", 5))[0]);
    }

    @Test
    void failuresNeverShowAPassword() {
        String[] a = ask(
                "info target=jdbc-mysql&db=mariadb&net=tcp&addr=127.0.0.1%3A1&user=u&password=hunter2&database=d");
        assertTrue(a[a.length - 1].startsWith("--- FAIL: open: "), a[a.length - 1]);
        assertFalse(String.join("\n", a).contains("hunter2"));
        assertEquals("--- FAIL: unknown verb \"bogus\"", ask("bogus")[0]);
    }
}
