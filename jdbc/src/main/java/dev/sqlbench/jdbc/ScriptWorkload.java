package dev.sqlbench.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The script workload, the twin of Go's script.Set.Workload: the cell's own
 * namespace (a schema on PostgreSQL, a database on MariaDB, the cell's own
 * file on SQLite) created and the setup script run in it once, untimed; a
 * run's executions shared out to the spec's clients, each its own
 * connection and thread; per-statement latencies as stmtN-p50-ns/op and
 * stmtN-p99-ns/op; the namespace dropped when the cell closes.
 */
public final class ScriptWorkload implements Workload {
    /** The workload's ID, Go's script.WorkloadName. */
    public static final String NAME = "Script";
    /** The executions of a run for a time, whatever its n (Go's TimedOps). */
    public static final int TIMED_OPS = 1_000_000_000;

    private final ScriptSpec spec;
    private final double scale;

    /** Compiles the spec a request carries; scale is the request's (0 means 1). */
    public ScriptWorkload(String json, double scale) throws Exception {
        this.spec = ScriptSpec.compile(json);
        this.scale = scale > 0 ? scale : 1;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Whether a run lasts a time rather than a count. */
    public boolean timed() {
        return spec.timeNanos > 0;
    }

    /** Returns the cell's namespace: sqlbench's prefix, the cell's scope, "script". */
    static String namespace(Dialect d) {
        return d.table("script");
    }

    static void enterNamespace(Connection c, Dialect d) throws SQLException {
        switch (d.db()) {
            case POSTGRES -> exec(c, "SET search_path TO " + namespace(d));
            case MARIADB -> c.setCatalog(namespace(d));
            default -> { } // SQLite: the cell's own file
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    static void dropNamespace(Connection c, Dialect d) throws SQLException {
        switch (d.db()) {
            case POSTGRES -> exec(c, "DROP SCHEMA IF EXISTS " + namespace(d) + " CASCADE");
            case MARIADB -> exec(c, "DROP DATABASE IF EXISTS " + namespace(d));
            default -> { }
        }
    }

    @Override
    public void setup(Env e) throws Exception {
        Connection c = e.conn();
        Dialect d = e.dialect();
        try {
            switch (d.db()) {
                case POSTGRES -> exec(c, "CREATE SCHEMA " + namespace(d));
                case MARIADB -> exec(c, "CREATE DATABASE " + namespace(d));
                default -> { }
            }
        } catch (SQLException x) {
            throw new Exception("create " + namespace(d) + ": " + Server.describe(x), x);
        }
        try {
            enterNamespace(c, d);
        } catch (SQLException x) {
            throw new Exception("enter " + namespace(d) + ": " + Server.describe(x), x);
        }
        if (spec.setup == null) {
            return;
        }
        try (ScriptConn k = new ScriptConn(spec, List.of(spec.setup), c, "simple", 0, scale)) {
            k.rng.seed(ScriptConn.SEED, 0);
            k.runScript(0);
        }
    }

    @Override
    public void teardown(Env e) throws Exception {
        dropNamespace(e.conn(), e.dialect());
    }

    /**
     * The verification pass (the check verb, Go's script.Check): the setup
     * and CHECK_OPS executions one by one on c in the spec's mode, then the
     * namespace dropped; returns the digest lines.
     */
    public List<String> check(Connection c, Dialect d) throws Exception {
        try {
            setup(new Env(c, d, null, 0, 0));
            ScriptConn.Digest digest = new ScriptConn.Digest(spec.statements());
            try (ScriptConn k = new ScriptConn(spec, spec.scripts, c, spec.mode, 0, scale)) {
                k.digest = digest;
                for (int i = 0; i < ScriptConn.CHECK_OPS; i++) {
                    k.exec(i);
                }
            }
            dropNamespace(c, d);
            return digest.lines();
        } catch (Exception x) {
            if (d.db() != Db.SQLITE) {
                try {
                    if (!c.getAutoCommit()) {
                        c.rollback();
                        c.setAutoCommit(true);
                    }
                    dropNamespace(c, d);
                } catch (SQLException y) {
                    throw new Exception(
                            x.getMessage() + " (and dropping " + namespace(d) + ": " + Server.describe(y) + ")", x);
                }
            }
            throw x;
        }
    }

    @Override
    public Run begin(Env e) throws Exception {
        List<ScriptConn> conns = new ArrayList<>();
        List<Connection> extra = new ArrayList<>();
        End release = () -> {
            Exception first = null;
            for (ScriptConn k : conns) {
                try {
                    k.close();
                } catch (Exception x) {
                    first = first == null ? x : first;
                }
            }
            for (Connection c : extra) {
                try {
                    c.close();
                } catch (Exception x) {
                    first = first == null ? x : first;
                }
            }
            if (first != null) {
                throw first;
            }
        };
        try {
            for (int client = 0; client < spec.clients; client++) {
                Connection c = e.conn();
                if (client > 0) {
                    try {
                        c = e.opener().open();
                    } catch (Exception x) {
                        throw new Exception("open client " + client + ": " + Server.describe(x), x);
                    }
                    extra.add(c);
                    enterNamespace(c, e.dialect());
                }
                ScriptConn k = new ScriptConn(spec, spec.scripts, c, spec.mode, client, scale);
                conns.add(k);
                k.hists = new Histogram[spec.scripts.size()][];
                for (int s = 0; s < spec.scripts.size(); s++) {
                    k.hists[s] = new Histogram[spec.scripts.get(s).stmts.size()];
                    for (int i = 0; i < k.hists[s].length; i++) {
                        k.hists[s][i] = newStmtHistogram();
                    }
                }
            }
        } catch (Exception x) {
            try {
                release.end();
            } catch (Exception ignored) {
                // the open's own error is the one to report
            }
            throw x;
        }
        int warm = e.warm();
        List<Op> ops = new ArrayList<>();
        for (ScriptConn k : conns) {
            ops.add(i -> {
                k.record = i >= warm;
                k.exec(i);
            });
        }
        return new Run(null, ops, null, null, release, 0, null, spec.timeNanos, () -> units(conns), null);
    }

    /** Two significant digits, as Go's newStmtHistogram. */
    static Histogram newStmtHistogram() {
        return new Histogram(1, ScriptConn.HIST_MAX, 2);
    }

    /** Returns every statement's p50 and p99 over the clients, as result-line units. */
    private String units(List<ScriptConn> conns) {
        StringBuilder b = new StringBuilder();
        int n = 0;
        for (int s = 0; s < spec.scripts.size(); s++) {
            for (int i = 0; i < spec.scripts.get(s).stmts.size(); i++) {
                n++;
                Histogram h = newStmtHistogram();
                for (ScriptConn k : conns) {
                    h.add(k.hists[s][i]);
                }
                if (h.getTotalCount() == 0) {
                    continue;
                }
                b.append(' ').append(ResultLine.number(h.getValueAtPercentile(50)))
                        .append(" stmt").append(n).append("-p50-ns/op");
                b.append(' ').append(ResultLine.number(h.getValueAtPercentile(99)))
                        .append(" stmt").append(n).append("-p99-ns/op");
            }
        }
        return b.toString();
    }
}
