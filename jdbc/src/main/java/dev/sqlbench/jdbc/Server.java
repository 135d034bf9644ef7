package dev.sqlbench.jdbc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * The runner side of the protocol, the twin of Go's runner.Loop: one
 * request per input line, each answered on out with zero or more lines and
 * a status line; cells stay open between runs, are set up on their first
 * run and torn down on close; a wrong result fails the run and closes the
 * cell. Progress and diagnostics go to log.
 */
public final class Server {
    static final String OK = "--- ok";
    static final String FAIL = "--- FAIL: ";
    /** The key of an open-loop run's progress lines, Go's protocol.ProgressKey. */
    static final String PROGRESS = "open-loop-progress";
    /**
     * The version of the runner protocol this runner speaks, Go's
     * runner.ProtocolVersion. Version 3 answers every slice of a run with its
     * own sample (a latency-hdr line and a result line) and leaves the
     * summing of a run's slices to the orchestrator.
     */
    public static final int PROTOCOL_VERSION = 3;

    private final BufferedReader in;
    private final PrintStream out, log;
    private final JitWarmup jit;
    private final Map<String, Cell> cells = new LinkedHashMap<>();
    private final Set<String> secrets = new HashSet<>();
    private final Histogram hist = Harness.newHistogram();

    /** Creates a server reading requests from in, answering on out, logging to log. */
    public Server(BufferedReader in, PrintStream out, PrintStream log, JitWarmup jit) {
        this.in = in;
        this.out = out;
        this.log = log;
        this.jit = jit;
    }

    /** Answers requests until the input ends, then closes every cell. */
    public void serve() throws IOException {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                respond(line);
                if (out.checkError()) {
                    throw new IOException("write reply: output closed");
                }
            }
        } finally {
            closeAll();
        }
    }

    /** Answers one request line, status line included, and flushes the answer. */
    void respond(String line) {
        try {
            handle(line);
            out.println(OK);
        } catch (Exception | LinkageError e) {
            out.println(FAIL + scrub(describe(e)));
        }
        out.flush();
    }

    /** Closes every open cell, as the end of the input does. */
    void closeAll() {
        for (String k : Set.copyOf(cells.keySet())) {
            try {
                closeCell(k);
            } catch (Exception e) {
                log.println("close cell " + k.replace('\u0000', ' ') + ": " + scrub(describe(e)));
            }
        }
    }

    private void handle(String line) throws Exception {
        Request req = Request.parse(line);
        if (!req.endpoint.password().isEmpty()) {
            secrets.add(req.endpoint.password());
        }
        switch (req.verb) {
            case Request.HELLO -> hello();
            case Request.INFO -> info(req);
            case Request.RUN -> run(req);
            case Request.CHECK -> check(req);
            default -> closeCell(key(req));
        }
    }

    /**
     * Declares what this runner implements (runner/protocol.go, hello): every
     * target with its capabilities, then every workload by ID.
     */
    private void hello() {
        out.println("runner-protocol: " + PROTOCOL_VERSION);
        for (Target t : Target.values()) {
            String caps = t.capList();
            out.println("runner-target: " + t.name + (caps.isEmpty() ? "" : " " + caps));
        }
        for (Workload w : Workloads.all()) {
            out.println("runner-workload: " + w.name());
        }
        out.println("runner-workload: " + ScriptWorkload.NAME); // built from each request's spec
    }

    /** Answers a check request: the script's verification pass on a connection of its own. */
    private void check(Request req) throws Exception {
        Target t = Target.lookup(req.target);
        ScriptWorkload w = new ScriptWorkload(req.script, req.scale);
        Dialect d = Dialect.of(Db.parse(req.db), req.scope);
        try (Connection c = open(req, t, d)) {
            for (String l : w.check(c, d)) {
                out.println(l);
            }
        }
    }

    /** Returns the workload a run request names: the catalogue's, or the script workload of its spec. */
    private static Workload workload(Request req) throws Exception {
        if (req.workload.equals(ScriptWorkload.NAME)) {
            if (req.script.isEmpty()) {
                throw new ProtocolException("workload " + ScriptWorkload.NAME + " needs its spec (script=)");
            }
            return new ScriptWorkload(req.script, req.scale);
        }
        return Workloads.lookup(req.workload);
    }

    private static String key(Request r) {
        return r.target + "\u0000" + r.scope;
    }

    private Connection open(Request req, Target t, Dialect d) throws Exception {
        return open(req, t, d, new java.util.Properties());
    }

    private Connection open(Request req, Target t, Dialect d, java.util.Properties extra) throws Exception {
        Connection c;
        try {
            c = t.open(req.dsn, req.endpoint, extra);
        } catch (SQLException e) {
            throw new Exception("open: " + describe(e), e);
        }
        for (String q : d.setup()) {
            try (Statement s = c.createStatement()) {
                s.execute(q);
            } catch (SQLException e) {
                c.close();
                throw new Exception("session setting \"" + q + "\": " + describe(e), e);
            }
        }
        return c;
    }

    private void info(Request req) throws Exception {
        Target t = Target.lookup(req.target);
        Db db = Db.parse(req.db);
        out.println(t.name + "-module: " + Versions.module(t));
        out.println("jdbc-jvm: " + Versions.jvm());
        out.println("jdbc-jvm-flags: " + Versions.jvmFlags());
        out.println("jdbc-jit-warmup: " + jit.describe());
        Dialect d = Dialect.of(db, req.scope);
        try (Connection c = open(req, t, d); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(d.version())) {
            if (!rs.next()) {
                throw new Exception("read version: no rows");
            }
            String v = rs.getString(1);
            out.println(t.name + "-driver: " + c.getMetaData().getDriverName() + " "
                    + c.getMetaData().getDriverVersion());
            if (db == Db.SQLITE) {
                out.println(t.name + "-sqlite: " + v); // each SQLite driver bundles its own library
            } else {
                out.println(db.key + "-version: " + v);
            }
            if (!req.endpoint.tls().isEmpty() && db != Db.SQLITE) {
                out.println(t.name + "-tls: " + tlsStatus(c, db)); // what the server says of this connection
            }
        }
    }

    /** The TLS version and cipher the server reports for c's session, as Go's bench.Dialect.TLSStatus. */
    private static String tlsStatus(Connection c, Db db) throws SQLException {
        String q = db == Db.POSTGRES
                ? "SELECT coalesce(version, ''), coalesce(cipher, '') FROM pg_stat_ssl WHERE pid = pg_backend_pid()"
                : "SELECT coalesce((SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS "
                        + "WHERE VARIABLE_NAME = 'SSL_VERSION'), ''), coalesce((SELECT VARIABLE_VALUE FROM "
                        + "information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'SSL_CIPHER'), '')";
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(q)) {
            if (!rs.next()) {
                throw new SQLException("read TLS status: no rows");
            }
            return rs.getString(1) + " " + rs.getString(2);
        }
    }

    /**
     * Times one run, or one slice of a run, and answers with its result line;
     * a slice (slices of 2 or more) answers with its own sample alone,
     * preceded by its latency-hdr line when the workload samples latencies,
     * and leaves no state behind: the orchestrator sums a run's slices.
     */
    private void run(Request req) throws Exception {
        String key = key(req);
        Cell c = cells.get(key);
        boolean first = c == null;
        if (first) {
            Target t = Target.lookup(req.target);
            Workload w = workload(req);
            Db db = Db.parse(req.db);
            if (!w.only().contains(db)) {
                throw new ProtocolException("workload " + w.name() + " does not run on " + db.key);
            }
            Dialect d = Dialect.of(db, req.scope);
            Connection conn = open(req, t, d);
            Env env = new Env(conn, d, extra -> open(req, t, d, extra), 0, 0);
            log.println("set up " + req.workload + " on " + req.target);
            try {
                w.setup(env);
            } catch (Exception e) {
                conn.close();
                throw new Exception("setup: " + describe(e), e);
            }
            c = new Cell(env, w);
            cells.put(key, c);
        }
        Sample s;
        TimeShare probe;
        String[] units = {"", ""};
        try {
            if (first && jit.on() && !(c.workload instanceof ScriptWorkload sw && sw.timed())) {
                jitWarm(c, req);
            }
            probe = new TimeShare(req.serverPid);
            s = measure(c, req, probe, units);
        } catch (Exception e) {
            closeCell(key);
            throw e;
        }
        log.printf("ran %s on %s%s: %d ops, %.0f ns/op, %.0f cpu-ns/op%n", req.workload, req.target,
                req.slices > 1 ? " (run " + req.run + ", slice " + req.slice + " of " + req.slices + ")" : "", s.n(),
                s.nsPerOp(), (double) s.cpuNanos() / s.n());
        if (req.slices > 1 && s.latency() != null) {
            // A slice of a run: the orchestrator merges the slices' histograms.
            out.println(LatencyHdr.line(s.latency()));
        }
        out.println(ResultLine.format(req.name, s) + probe.units(s) + units[1] + units[0]);
    }

    /** Runs untimed full runs of the cell until the JIT warm-up is done. */
    private void jitWarm(Cell c, Request req) throws Exception {
        long start = System.nanoTime(), ops = 0;
        int runs = 0;
        // Runs of the request's size, but no bigger than the warm-up: a bulk
        // insert's run can be millions of rows.
        int size = (int) Math.max(1,
                jit.minOps() > 0 ? Math.min(req.warmup + req.n, jit.minOps()) : req.warmup + req.n);
        do {
            Workload.Run r = c.workload.begin(c.env.forRun(0, size));
            try {
                Harness.warm(r, size);
                if (r.finish() != null && r.start() == null) { // warm finished a run with a start
                    r.finish().end();
                }
            } finally {
                r.end().end();
            }
            ops += size;
            runs++;
        } while (jit.more(ops, (System.nanoTime() - start) / 1_000_000));
        log.printf("jit warm-up of %s on %s: %d runs, %d operations, %d ms%n", req.workload, req.target, runs, ops,
                (System.nanoTime() - start) / 1_000_000);
    }

    private Sample measure(Cell c, Request req, TimeShare probe, String[] units) throws Exception {
        int warm = req.warmup, n = req.n;
        // A run in slices times its start in its first slice and its finish in its last.
        boolean sliced = req.slices > 1;
        Workload.Run r;
        try {
            r = c.workload.begin(c.env.forRun(warm, n));
        } catch (Exception e) {
            throw new Exception("begin: " + describe(e), e);
        }
        Sample s;
        try {
            Harness.warm(r, warm);
            // Every run of a cell draws the same schedule, as Go's runner seeds it.
            OpenLoop ol = req.rate > 0 ? new OpenLoop(req.rate, req.latencyLimit, req.progress, req.slice) : null;
            OpenLoop.Stats[] stats = {null};
            s = Harness.measure(r, warm, n, hist, probe, sliced && req.slice > 1, sliced && req.slice < req.slices,
                    ol, iv -> {
                        out.println(PROGRESS + ": " + req.name + " " + iv);
                        out.flush();
                    }, stats);
            if (r.units() != null) {
                units[0] = r.units().get();
            }
            if (stats[0] != null) {
                units[1] = openLoopUnits(stats[0], s);
            }
        } catch (Exception e) {
            try {
                r.end().end();
            } catch (Exception ignored) {
                // the run's own error is the one to report
            }
            throw e;
        }
        try {
            r.end().end();
        } catch (Exception e) {
            throw new Exception("end: " + describe(e), e);
        }
        return s;
    }

    /**
     * The units an open-loop run adds to its result line, as Go's runner:
     * the mean schedule lag, the late and skipped counts, and the rate of
     * the operations done (ops/s counts the arrivals).
     */
    static String openLoopUnits(OpenLoop.Stats st, Sample s) {
        return " " + ResultLine.number(st.meanLag()) + " lag-ns/op " + st.late + " late " + st.skipped + " skipped "
                + ResultLine.number(st.done / (s.elapsedNanos() / 1e9)) + " done-ops/s";
    }

    private void closeCell(String key) throws Exception {
        Cell c = cells.remove(key);
        if (c == null) {
            return;
        }
        try {
            c.workload.teardown(c.env);
        } finally {
            c.env.conn().close();
        }
    }

    /** Removes every password seen in a request from s. */
    String scrub(String s) {
        for (String p : secrets) {
            s = s.replace(p, "xxxxx");
        }
        return s;
    }

    /** Returns a one-line description of t: its message, or its class when it has none. */
    static String describe(Throwable t) {
        String m = t.getMessage();
        if (m == null || m.isBlank()) {
            m = t.getClass().getSimpleName();
        }
        return String.join(" ", m.strip().split("\\s+"));
    }
}
