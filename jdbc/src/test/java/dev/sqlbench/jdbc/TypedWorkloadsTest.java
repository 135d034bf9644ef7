package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The typed family's Java twin on real SQLite files through xerial
 * sqlite-jdbc: its IDs are the Go catalogue's, every workload passes its own
 * check, and a wrong value in a column fails the read naming the column.
 */
class TypedWorkloadsTest {
    @TempDir
    Path dir;

    @Test
    void theIdsAreTheGoCataloguesInItsOrder() {
        List<String> got = TypedWorkloads.all().stream().map(Workload::name).toList();
        assertEquals(List.of("TypedInsert", "TypedQuery/scan=string", "TypedQuery/scan=bytes", "TypedWideInsert",
                "TypedWideQuery"), got);
    }

    @Test
    void theValuesAreGos() {
        // The values Go's workloads/typed.go computes for these rows.
        assertEquals("0.7920", TypedWorkloads.amount(1));
        assertEquals("-3.9600", TypedWorkloads.amount(5));
        assertEquals("5a1be04c-937d-4e21-0000-000000000007", TypedWorkloads.uuid(7).toString());
        assertEquals("2026-01-02T03:04:12.000007Z", TypedWorkloads.time(7).toString());
        assertEquals("{\"n\": 2, \"ok\": true, \"tag\": \"item-2\"}", TypedWorkloads.doc(2));
    }

    @Test
    void theTablesAreGos() {
        // The tables as Go's workloads/typed.go creates them (sqlbench list workloads).
        Dialect d = Dialect.of(Db.SQLITE, "t");
        assertEquals("CREATE TABLE sqlbench_t_typed (id INTEGER PRIMARY KEY NOT NULL, ts DATETIME NOT NULL, "
                + "amount TEXT NOT NULL, uid BLOB NOT NULL, doc TEXT NOT NULL, data BLOB NOT NULL, note TEXT, "
                + "qty INTEGER)", TypedWorkloads.create(d, false));
        assertTrue(TypedWorkloads.ddl(Db.SQLITE, true).startsWith("w1 INTEGER NOT NULL, w2 TEXT NOT NULL, "
                + "w3 REAL NOT NULL, w4 INTEGER NOT NULL"), TypedWorkloads.ddl(Db.SQLITE, true));
        assertTrue(TypedWorkloads.ddl(Db.POSTGRES, true).startsWith("w1 BIGINT NOT NULL, w2 VARCHAR(32) NOT NULL, "
                + "w3 DOUBLE PRECISION NOT NULL"), TypedWorkloads.ddl(Db.POSTGRES, true));
        assertTrue(TypedWorkloads.ddl(Db.SQLITE, true).endsWith("w19 INTEGER NOT NULL"));
    }

    @Test
    void everyWorkloadPassesItsCheck() throws Exception {
        for (Workload w : TypedWorkloads.all()) {
            Env e = env();
            w.setup(e);
            Workload.Run r = w.begin(e.forRun(2, 20));
            Harness.warm(r, 2);
            Harness.measure(r, 2, 20, Harness.newHistogram());
            r.end().end();
            w.teardown(e);
        }
    }

    @Test
    void aWrongValueFailsTheRead() throws Exception {
        for (String[] c : new String[][] {
            {"TypedQuery/scan=string", "amount", "'1.0000'"},
            {"TypedQuery/scan=bytes", "doc", "'{}'"},
            {"TypedQuery/scan=string", "uid", "X'00000000000000000000000000000000'"},
            {"TypedQuery/scan=bytes", "note", "NULL"},
            {"TypedQuery/scan=string", "qty", "8"},
            {"TypedQuery/scan=string", "ts", "'2001-02-03T04:05:06Z'"},
            {"TypedWideQuery", "w5", "'w5-8'"},
        }) {
            Workload w = Workloads.lookup(c[0]);
            Env e = env();
            w.setup(e);
            String table = e.dialect().table(c[0].startsWith("TypedWide") ? "typedwide" : "typed");
            ClassicWorkloads.exec(e.conn(), "UPDATE " + table + " SET " + c[1] + " = " + c[2] + " WHERE id = 7");
            Workload.Run r = w.begin(e.forRun(0, 1));
            Throwable ex = assertThrows(Exception.class,
                    () -> Harness.measure(r, 0, 1, Harness.newHistogram()));
            while (ex != null && !(ex instanceof WrongResultException)) {
                ex = ex.getCause();
            }
            assertTrue(ex != null && ex.getMessage().contains("row 7: " + c[1] + " = "), c[1] + ": " + ex);
            r.end().end();
        }
    }

    private Env env() throws Exception {
        Dialect d = Dialect.of(Db.SQLITE, "t");
        String file = dir.resolve("db-" + System.nanoTime() + ".sqlite").toString();
        Env.Opener open = extra -> {
            Connection c = Target.SQLITE.open(file, null, extra);
            for (String q : d.setup()) {
                ClassicWorkloads.exec(c, q);
            }
            return c;
        };
        return new Env(open.open(), d, open, 0, 0);
    }
}
