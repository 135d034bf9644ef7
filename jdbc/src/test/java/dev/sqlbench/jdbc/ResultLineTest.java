package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ResultLineTest {
    @Test
    void formatsTheGoBenchmarkLineWithoutAllocsPerOp() {
        Histogram h = Harness.newHistogram();
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 1000L);
        }
        String line = ResultLine.format("SimpleExec/db=sqlite/driver=xerial/api=jdbc",
                new Sample(4000, 100_000_000L, 6_000, h, 0, 0));
        assertEquals("BenchmarkSimpleExec/db=sqlite/driver=xerial/api=jdbc 4000 25000 ns/op 40000 ops/s 1.5 B/op "
                + h.getValueAtPercentile(50) + " p50-ns/op " + h.getValueAtPercentile(99) + " p99-ns/op "
                + h.getValueAtPercentile(99.9) + " p99.9-ns/op", line);
        assertFalse(line.contains("allocs/op"));
    }

    @Test
    void aBatchRunHasMegabytesPerSecondAndNoPercentiles() {
        String line = ResultLine.format("BulkInsert/shape=3x8/path=copy/db=postgres/driver=pgjdbc/api=jdbc/net=tcp",
                new Sample(1000, 2_000_000L, 0, null, 0, 24));
        assertEquals("BenchmarkBulkInsert/shape=3x8/path=copy/db=postgres/driver=pgjdbc/api=jdbc/net=tcp"
                + " 1000 2000 ns/op 500000 ops/s 0 B/op 12 MB/s", line);
    }

    @Test
    void formatsNumbersAsGosPercentV() {
        assertEquals("26350", ResultLine.number(26350.0));
        assertEquals("0", ResultLine.number(0));
        assertEquals("21110.2541", ResultLine.number(21110.2541));
        assertEquals("12345678901", ResultLine.number(12345678901.0));
        assertEquals("0.001", ResultLine.number(0.001));
        assertEquals("37951.29411764706", ResultLine.number(37951.29411764706));
    }
}
