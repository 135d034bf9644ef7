package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Holds the pool family's twin to Go's workloads/pool.go (TestPoolValues pins the same). */
class PoolWorkloadsTest {
    @Test
    void theValuesAreGos() {
        assertEquals(919, PoolWorkloads.id(1));
        assertEquals(0, PoolWorkloads.id(1000));
        assertEquals("pool-row-7", PoolWorkloads.rowName(7));
        assertEquals("SELECT id, name FROM sqlbench_t_pool WHERE id = ?",
                PoolWorkloads.query(Dialect.of(Db.POSTGRES, "t")));
    }

    @Test
    void theWorkloadsAreGos() {
        List<String> want = List.of("PoolQuery/pool=4/clients=1", "PoolQuery/pool=4/clients=4",
                "PoolQuery/pool=4/clients=16", "PoolQuery/pool=4/clients=64", "PoolQuery/pool=64/clients=1",
                "PoolQuery/pool=64/clients=4", "PoolQuery/pool=64/clients=16", "PoolQuery/pool=64/clients=64");
        assertEquals(want, PoolWorkloads.all().stream().map(Workload::name).toList());
    }
}
