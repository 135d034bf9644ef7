package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequestTest {
    @Test
    void parsesARunAsTheGoOrchestratorEncodesIt() throws Exception {
        // The line Go's runner.Request.Encode writes (keys sorted, values query-escaped).
        Request r = Request.parse("run addr=127.0.0.1%3A3306&database=bench&db=mariadb"
                + "&name=SimpleExec%2Fdb%3Dmariadb%2Fdriver%3Dconnectorj%2Fapi%3Djdbc%2Fnet%3Dtcp&n=1000&net=tcp"
                + "&password=p%26w+d%3D&scope=c3&target=jdbc-mysql&user=bench&warmup=100&workload=SimpleExec");
        assertEquals("run", r.verb);
        assertEquals("jdbc-mysql", r.target);
        assertEquals("SimpleExec", r.workload);
        assertEquals("mariadb", r.db);
        assertEquals("c3", r.scope);
        assertEquals("SimpleExec/db=mariadb/driver=connectorj/api=jdbc/net=tcp", r.name);
        assertEquals(1000, r.n);
        assertEquals(100, r.warmup);
        assertEquals(new Endpoint("tcp", "127.0.0.1:3306", "bench", "p&w d=", "bench"), r.endpoint);
        assertEquals("127.0.0.1", r.endpoint.host());
        assertEquals(3306, r.endpoint.port());
    }

    @Test
    void parsesASlice() throws Exception {
        Request r = Request.parse("run n=10&name=x&run=2&scope=c&slice=3&slices=5&target=t&warmup=1&workload=w");
        assertEquals(2, r.run);
        assertEquals(3, r.slice);
        assertEquals(5, r.slices);
        assertEquals(0, Request.parse("run n=10&name=x&scope=c&target=t&warmup=1&workload=w").slices);
    }

    @Test
    void parsesTheOtherVerbs() throws Exception {
        assertEquals("hello", Request.parse("hello").verb);
        Request info = Request.parse("info db=sqlite&dsn=%2Ftmp%2Fx.db&target=jdbc-sqlite");
        assertEquals("/tmp/x.db", info.dsn);
        assertEquals("c0", Request.parse("close scope=c0&target=jdbc-sqlite").scope);
    }

    @Test
    void rejectsWhatTheGoRunnerRejects() {
        String[][] bad = {
            {"launch target=x", "unknown verb \"launch\""},
            {"info db=sqlite", "info: target is required"},
            {"run target=t&workload=w&scope=c&name=n&n=0&warmup=0", "run: n must be a positive integer, got \"0\""},
            {"run target=t&workload=w&scope=c&name=n&n=5&warmup=-1", "run: warmup must be a non-negative integer"},
            {"run target=t&workload=w&scope=c&n=5&warmup=0", "run: name, workload and scope are required"},
            {"info target=t;db=x", "bad parameters"},
            {"info target=%zz", "bad parameters"},
            {"run target=t&workload=w&scope=c&name=n&n=5&warmup=0&run=1&slice=3&slices=2",
                "run: bad slice \"3\" of \"2\" in run \"1\""},
            {"run target=t&workload=w&scope=c&name=n&n=5&warmup=0&slice=1&slices=2", "run: bad slice"},
        };
        for (String[] c : bad) {
            ProtocolException e = assertThrows(ProtocolException.class, () -> Request.parse(c[0]), c[0]);
            assertTrue(e.getMessage().startsWith(c[1]), c[0] + ": " + e.getMessage());
        }
    }

    @Test
    void anEndpointNeverPrintsItsPassword() {
        Endpoint e = new Endpoint("tcp", "[::1]:5432", "u", "s3cret", "d");
        assertFalse(e.toString().contains("s3cret"));
        assertEquals("::1", e.host());
        assertEquals(5432, e.port());
    }
}
