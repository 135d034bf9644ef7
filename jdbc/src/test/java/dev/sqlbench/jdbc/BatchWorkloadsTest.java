package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batch family's Java twin: its IDs are the Go catalogue's JDBC paths,
 * its values Go's, each driver's rewrite option named, and the read-back
 * check fails on a lost or changed row (on a SQLite file: the check is
 * plain JDBC; the family itself runs on the servers, TestJDBCBatchRoundTrips).
 */
class BatchWorkloadsTest {
    @TempDir
    Path dir;

    @Test
    void theIdsAreTheGoCataloguesJdbcPaths() {
        List<String> got = BatchWorkloads.all().stream().map(Workload::name).toList();
        assertEquals(List.of("Batch/op=insert/path=each", "Batch/op=select/path=each",
                "Batch/op=insert/path=executebatch", "Batch/op=insert/path=rewrite"), got);
    }

    @Test
    void theValuesAreGos() {
        assertEquals(7, BatchWorkloads.value(0));
        assertEquals(31 * 1000 + 7, BatchWorkloads.value(1000));
    }

    @Test
    void eachDriverHasItsRewriteOption() {
        assertEquals("reWriteBatchedInserts", BatchWorkloads.rewriteProperty(Db.POSTGRES));
        assertEquals("rewriteBatchedStatements", BatchWorkloads.rewriteProperty(Db.MARIADB));
    }

    @Test
    void theReadBackFailsOnALostOrChangedRow() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("b.db"))) {
            ClassicWorkloads.exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY NOT NULL, v BIGINT NOT NULL)");
            for (long id = 1; id <= 10; id++) {
                ClassicWorkloads.exec(c, "INSERT INTO t VALUES (" + id + ", " + BatchWorkloads.value(id) + ")");
            }
            BatchWorkloads.verify(c, "t", 0, 10);
            BatchWorkloads.verify(c, "t", 4, 6);
            assertThrows(WrongResultException.class, () -> BatchWorkloads.verify(c, "t", 0, 11));
            ClassicWorkloads.exec(c, "UPDATE t SET v = v + 1 WHERE id = 7");
            assertThrows(WrongResultException.class, () -> BatchWorkloads.verify(c, "t", 0, 10));
            ClassicWorkloads.exec(c, "UPDATE t SET v = v - 1 WHERE id = 7");
            ClassicWorkloads.exec(c, "DELETE FROM t WHERE id = 5");
            assertThrows(WrongResultException.class, () -> BatchWorkloads.verify(c, "t", 0, 9));
        }
    }
}
