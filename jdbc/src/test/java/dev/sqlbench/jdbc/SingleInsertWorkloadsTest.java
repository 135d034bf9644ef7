package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SingleInsert's Java twin on real SQLite files through xerial sqlite-jdbc:
 * its IDs, the statements each client creates, executes and closes per row
 * (counted by a wrapper around the real driver's connections), the published
 * table kept over a cell's runs and the check of each run's own rows.
 */
class SingleInsertWorkloadsTest {
    private static final Pattern UUID4 =
            Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

    @TempDir
    Path dir;

    @Test
    void theIdsAreTheGoCataloguesInItsOrder() throws Exception {
        List<String> want = new ArrayList<>();
        for (String data : List.of("fixed", "random")) {
            for (int n : new int[] {1, 2, 4, 8}) {
                for (String prep : List.of("each", "once")) {
                    want.add("SingleInsert/data=" + data + "/conns=" + n + "/prepare=" + prep);
                }
            }
        }
        List<String> got = SingleInsertWorkloads.all().stream().map(Workload::name).toList();
        assertEquals(want, got);
        for (String id : want) {
            assertEquals(id, Workloads.lookup(id).name());
        }
        assertThrows(ProtocolException.class, () -> Workloads.lookup("SingleInsert/data=random/conns=2"));
    }

    @Test
    void theTableIsThePublishedSampleA() throws Exception {
        Cell c = cell("SingleInsert/data=fixed/conns=1/prepare=each", null);
        List<String> cols = new ArrayList<>();
        try (Statement s = c.env.conn().createStatement();
                ResultSet rs = s.executeQuery("PRAGMA table_info(" + c.env.dialect().table("single") + ")")) {
            while (rs.next()) {
                cols.add(rs.getString("name") + " " + rs.getString("type") + (rs.getInt("pk") == 1 ? " pk" : ""));
            }
        }
        assertEquals(List.of("Id INTEGER pk", "FirstInsert TEXT", "LastUpdate TEXT", "FieldA VARCHAR(36)"), cols);
        assertEquals("INSERT INTO sqlbench_t_single (FieldA) VALUES (?)",
                SingleInsertWorkloads.insert(c.env.dialect()));
        c.workload.teardown(c.env);
    }

    @Test
    void prepareEachCreatesExecutesAndClosesAStatementPerRow() throws Exception {
        for (int clients : new int[] {1, 2}) {
            Counts n = new Counts();
            Cell c = cell("SingleInsert/data=random/conns=" + clients + "/prepare=each", n);
            run(c, 3, 40);
            assertEquals(43, n.prepared.get(), clients + " clients: statements created");
            assertEquals(43, n.closed.get(), clients + " clients: statements closed");
            assertEquals(43, n.executed.get(), clients + " clients: executions");
            assertEquals(1, n.maxOpenPerConn.get(), clients + " clients: statements open at once on one connection");
            assertEquals(0, n.executedTwice.get(), clients + " clients: statements executed more than once");
            // The cell's own connection is counted too: its checks (the
            // largest Id, the read-back) prepare nothing.
            assertEquals(clients + 1, n.conns.get(), "connections");
            c.workload.teardown(c.env);
        }
    }

    @Test
    void prepareOncePreparesOncePerClientAndRun() throws Exception {
        Counts n = new Counts();
        Cell c = cell("SingleInsert/data=fixed/conns=2/prepare=once", n);
        Workload.Run r = c.workload.begin(c.env.forRun(0, 40));
        assertEquals(2, n.prepared.get(), "statements prepared at begin");
        Harness.measure(r, 0, 40, Harness.newHistogram());
        assertEquals(0, n.closed.get(), "statements closed before the end");
        r.end().end();
        assertEquals(2, n.prepared.get(), "statements prepared");
        assertEquals(40, n.executed.get(), "executions");
        assertEquals(2, n.closed.get(), "statements closed");
        c.workload.teardown(c.env);
    }

    @Test
    void theTableLivesForTheCellAndHoldsThePublishedData() throws Exception {
        for (String data : List.of("fixed", "random")) {
            Cell c = cell("SingleInsert/data=" + data + "/conns=2/prepare=each", null);
            run(c, 2, 30);
            run(c, 2, 30);
            String table = c.env.dialect().table("single");
            Set<String> seen = new HashSet<>();
            int rows = 0;
            try (Statement s = c.env.conn().createStatement();
                    ResultSet rs = s.executeQuery("SELECT FieldA FROM " + table)) {
                while (rs.next()) {
                    String v = rs.getString(1);
                    rows++;
                    seen.add(v);
                    if (data.equals("fixed")) {
                        assertEquals("9xKf3QpLm2Ry7UbHt6NwEjVg8As5OcIy4B", v);
                    } else {
                        assertTrue(UUID4.matcher(v).matches(), v + " is no random UUID");
                    }
                }
            }
            assertEquals(64, rows, data + ": rows after two runs");
            assertEquals(data.equals("fixed") ? 1 : 64, seen.size(), data + ": distinct values");
            c.workload.teardown(c.env);
        }
    }

    @Test
    void eachRunChecksItsOwnRowsOnly() throws Exception {
        Cell c = cell("SingleInsert/data=random/conns=1/prepare=each", null);
        String table = c.env.dialect().table("single");
        run(c, 0, 20);
        // A spoiled row of an earlier run is no business of the next.
        ClassicWorkloads.exec(c.env.conn(), "UPDATE " + table + " SET FieldA = 'spoiled' WHERE Id = 1");
        run(c, 0, 20);
        // A spoiled row of this run is.
        Workload.Run r = c.workload.begin(c.env.forRun(0, 20));
        Harness.measure(r, 0, 20, Harness.newHistogram());
        ClassicWorkloads.exec(c.env.conn(), "UPDATE " + table + " SET FieldA = 'spoiled' WHERE Id = 45");
        WrongResultException e = assertThrows(WrongResultException.class, () -> r.end().end());
        assertTrue(e.getMessage().contains("holds 20 new rows"), e.getMessage());
        // So is a missing one.
        Workload.Run r2 = c.workload.begin(c.env.forRun(0, 20));
        Harness.measure(r2, 0, 20, Harness.newHistogram());
        ClassicWorkloads.exec(c.env.conn(), "DELETE FROM " + table + " WHERE Id = 70");
        e = assertThrows(WrongResultException.class, () -> r2.end().end());
        assertTrue(e.getMessage().contains("holds 19 new rows"), e.getMessage());
        c.workload.teardown(c.env);
    }

    /** Runs warm untimed and n timed operations and ends the run (its check). */
    private static void run(Cell c, int warm, int n) throws Exception {
        Workload.Run r = c.workload.begin(c.env.forRun(warm, n));
        Harness.warm(r, warm);
        Harness.measure(r, warm, n, Harness.newHistogram());
        r.end().end();
    }

    /**
     * Returns the set-up cell of workload id on a new SQLite file, its clients' connections counted by n when not
     * null.
     */
    private Cell cell(String id, Counts n) throws Exception {
        // The cell's connection is wrapped as the clients' are.
        Dialect d = Dialect.of(Db.SQLITE, "t");
        String file = dir.resolve("db-" + System.nanoTime() + ".sqlite").toString();
        Env.Opener open = extra -> {
            Connection c = Target.SQLITE.open(file, null, extra);
            for (String q : d.setup()) {
                ClassicWorkloads.exec(c, q);
            }
            return n == null ? c : n.wrap(c);
        };
        Env e = new Env(open.open(), d, open, 0, 0);
        Workload w = Workloads.lookup(id);
        w.setup(e);
        return new Cell(e, w);
    }

    /**
     * Counts what the clients do with statements, through proxies around the
     * real driver's connections and prepared statements.
     */
    private static final class Counts {
        final AtomicInteger conns = new AtomicInteger();
        final AtomicInteger prepared = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final AtomicInteger executed = new AtomicInteger();
        final AtomicInteger executedTwice = new AtomicInteger();
        final AtomicInteger maxOpenPerConn = new AtomicInteger();

        Connection wrap(Connection real) {
            conns.incrementAndGet();
            AtomicInteger open = new AtomicInteger();
            InvocationHandler h = (proxy, m, args) -> {
                Object o = call(real, m, args);
                if (m.getName().equals("prepareStatement")) {
                    prepared.incrementAndGet();
                    maxOpenPerConn.accumulateAndGet(open.incrementAndGet(), Math::max);
                    return statement((PreparedStatement) o, open);
                }
                return o;
            };
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, h);
        }

        private PreparedStatement statement(PreparedStatement real, AtomicInteger open) {
            AtomicInteger runs = new AtomicInteger();
            boolean[] done = new boolean[1];
            InvocationHandler h = (proxy, m, args) -> {
                switch (m.getName()) {
                    case "executeUpdate", "execute" -> {
                        executed.incrementAndGet();
                        if (runs.incrementAndGet() == 2) {
                            executedTwice.incrementAndGet();
                        }
                    }
                    case "close" -> {
                        if (!done[0]) {
                            done[0] = true;
                            closed.incrementAndGet();
                            open.decrementAndGet();
                        }
                    }
                    default -> {
                    }
                }
                return call(real, m, args);
            };
            return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                    new Class<?>[] {PreparedStatement.class}, h);
        }

        private static Object call(Object real, Method m, Object[] args) throws Throwable {
            try {
                return m.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
