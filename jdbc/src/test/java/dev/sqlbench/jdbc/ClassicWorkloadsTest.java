package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The classic workloads' JDBC calls per operation, counted on a real
 * sqlite-jdbc connection through a counting wrapper, against the published
 * Java program's (go-sql-driver/sql-benchmark, SQLBenchmark.java of
 * 2013-03-19, the program the studies ran).
 */
class ClassicWorkloadsTest {
    @TempDir
    Path dir;

    /** Counts the calls made through the wrappers it hands out, by "Interface.method/arity". */
    static final class Counter {
        final Map<String, Integer> calls = new TreeMap<>();
        /** The calls made outside the clock: by begin and end. */
        final Map<String, Integer> outside = new TreeMap<>();
        /** The statements that executed SQL, each once. */
        final Set<Object> executing = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

        int get(String call) {
            return calls.getOrDefault(call, 0);
        }

        /** Wraps c: every Statement, PreparedStatement and ResultSet it returns is counted too. */
        Connection wrap(Connection c) {
            return (Connection) wrap(c, Connection.class);
        }

        private Object wrap(Object target, Class<?> iface) {
            InvocationHandler h = (proxy, m, args) -> {
                int arity = args == null ? 0 : args.length;
                calls.merge(iface.getSimpleName() + "." + m.getName() + "/" + arity, 1, Integer::sum);
                if (m.getName().startsWith("execute")) {
                    executing.add(target);
                }
                Object out;
                try {
                    if (iface == PreparedStatement.class && m.getName().equals("execute") && arity == 1) {
                        // sqlite-jdbc refuses it; Connector/J, which the
                        // published program called it on, runs the SQL as a
                        // plain statement: so does this connection.
                        try (Statement plain = ((Statement) target).getConnection().createStatement()) {
                            out = plain.execute((String) args[0]);
                        }
                    } else {
                        out = m.invoke(target, args);
                    }
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
                if (out instanceof PreparedStatement) {
                    return wrap(out, PreparedStatement.class);
                }
                if (out instanceof Statement) {
                    return wrap(out, Statement.class);
                }
                if (out instanceof ResultSet) {
                    return wrap(out, ResultSet.class);
                }
                return out;
            };
            return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {iface}, h);
        }
    }

    /**
     * Sets w up on a fresh SQLite file, warms up warm operations and times n
     * of one run through the harness and a counter, and returns it: calls
     * holds what the timed run called, outside what begin and end called.
     */
    private Counter count(String workload, int warm, int n) throws Exception {
        Workload w = Workloads.lookup(workload);
        Dialect d = Dialect.of(Db.SQLITE, "t");
        try (Connection real = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(workload + ".db"))) {
            Env setup = new Env(real, d, extra -> null, 0, n);
            w.setup(setup);
            Counter k = new Counter();
            Workload.Run r = w.begin(new Env(k.wrap(real), d, extra -> null, warm, n));
            k.outside.putAll(k.calls);
            Harness.warm(r, warm);
            k.calls.clear();
            Harness.measure(r, warm, n, Harness.newHistogram());
            Map<String, Integer> clock = new TreeMap<>(k.calls);
            k.calls.clear();
            r.end().end();
            k.calls.forEach((call, c) -> k.outside.merge(call, c, Integer::sum));
            k.calls.clear();
            k.calls.putAll(clock);
            w.teardown(setup);
            return k;
        }
    }

    private Counter count(String workload, int n) throws Exception {
        return count(workload, 0, n);
    }

    /**
     * Asserts the calls each of n timed operations made, per operation, the
     * calls the timed run made once (perRun), and those begin and end made
     * outside the clock; and that nothing else was called.
     */
    private static void assertPerOp(Counter k, int n, Map<String, Integer> perOp, Map<String, Integer> perRun,
            Map<String, Integer> outside) {
        Map<String, Integer> want = new TreeMap<>();
        perOp.forEach((call, c) -> want.put(call, c * n));
        want.putAll(perRun);
        assertEquals(want, k.calls, "calls inside the clock");
        assertEquals(new TreeMap<>(outside), k.outside, "calls outside the clock");
    }

    @Test
    void simpleOperationsShareOneStatement() throws Exception {
        int n = 250;
        // SimpleQuery: stmt.execute("SELECT number, str FROM test"),
        // getResultSet, 100 rows of getInt(1), the result set left open.
        Counter k = count("SimpleQuery", n);
        assertPerOp(k, n, Map.of("Statement.execute/1", 1, "Statement.getResultSet/0", 1, "ResultSet.next/0", 101,
                "ResultSet.getInt/1", 100), Map.of(), Map.of("Connection.createStatement/0", 1,
                "Statement.setPoolable/1", 1, "Statement.close/0", 1));
        assertEquals(1, k.executing.size(), "statements that executed");
        // SimpleQueryRow: stmt.execute("SELECT ... WHERE number=" + i),
        // getResultSet, next, getInt(1), getString(2).
        k = count("SimpleQueryRow", n);
        assertPerOp(k, n, Map.of("Statement.execute/1", 1, "Statement.getResultSet/0", 1, "ResultSet.next/0", 1,
                "ResultSet.getInt/1", 1, "ResultSet.getString/1", 1), Map.of(), Map.of(
                "Connection.createStatement/0", 1, "Statement.setPoolable/1", 1, "Statement.close/0", 1));
        assertEquals(1, k.executing.size(), "statements that executed");
        // SimpleExec: stmt.execute("SET @test_var=1"; on SQLite SELECT 1).
        k = count("SimpleExec", n);
        assertPerOp(k, n, Map.of("Statement.execute/1", 1), Map.of(), Map.of("Connection.createStatement/0", 1,
                "Statement.setPoolable/1", 1, "Statement.close/0", 1));
        assertEquals(1, k.executing.size(), "statements that executed");
    }

    @Test
    void preparedOperationsCallWhatThePublishedProgramCalls() throws Exception {
        int n = 250;
        // The published program prepares and closes inside its clock, and
        // so does each timed run, after a warm-up (as a session's) of its own
        // statement.
        for (int warm : new int[] {0, 30}) {
            // PreparedQuery: one statement; execute, getResultSet, 100 getInt(1).
            Counter k = count("PreparedQuery", warm, n);
            assertPerOp(k, n, Map.of("PreparedStatement.execute/0", 1, "PreparedStatement.getResultSet/0", 1,
                    "ResultSet.next/0", 101, "ResultSet.getInt/1", 100),
                    Map.of("Connection.prepareStatement/1", 1, "PreparedStatement.close/0", 1), Map.of());
            // PreparedQueryRow: prepared again every 100 lookups (250: three
            // statements); setInt, execute, getResultSet, next, getInt, getString.
            k = count("PreparedQueryRow", warm, n);
            assertPerOp(k, n, Map.of("PreparedStatement.setInt/2", 1, "PreparedStatement.execute/0", 1,
                    "PreparedStatement.getResultSet/0", 1, "ResultSet.next/0", 1, "ResultSet.getInt/1", 1,
                    "ResultSet.getString/1", 1), Map.of("Connection.prepareStatement/1", 3,
                    "PreparedStatement.close/0", 3), Map.of());
            assertEquals(3 + (warm > 0 ? 1 : 0), k.executing.size(), "statements that executed");
            // PreparedExec: one statement, execute.
            k = count("PreparedExec", warm, n);
            assertPerOp(k, n, Map.of("PreparedStatement.execute/0", 1),
                    Map.of("Connection.prepareStatement/1", 1, "PreparedStatement.close/0", 1), Map.of());
            // PreparedExec as the SQL-Benchmark Java program calls it: the
            // statement's execute with the SQL passed again.
            System.setProperty(ClassicWorkloads.PREPARED_EXEC_PROPERTY, ClassicWorkloads.PREPARED_EXEC_WITH_SQL);
            try {
                k = count("PreparedExec", warm, n);
            } finally {
                System.clearProperty(ClassicWorkloads.PREPARED_EXEC_PROPERTY);
            }
            assertPerOp(k, n, Map.of("PreparedStatement.execute/1", 1),
                    Map.of("Connection.prepareStatement/1", 1, "PreparedStatement.close/0", 1), Map.of());
        }
    }
}
