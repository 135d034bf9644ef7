package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The figures Go's bench package gives (printed from bench.Mix, Value, RowHash, GeneratedChecksum). */
class DataGenTest {
    @Test
    void mixMatchesGo() {
        assertEquals(6828191421449455461L, DataGen.mix(0));
        assertEquals(-3129570668888545931L, DataGen.mix(1));
        assertEquals(-4729245748110078569L, DataGen.mix(1L << 32));
    }

    @Test
    void valuesMatchGo() {
        assertEquals("MlAxURXl", DataGen.value(0, 0, 3, 8));
        assertEquals("ISdMbJhtTymVSdFzXXYYQEPfk3TVzqBW", DataGen.value(7, 3, 16, 32));
        assertEquals("WDpcbnhm", DataGen.value(123456, 2, 3, 8));
    }

    @Test
    void hashesAndChecksumsMatchGo() {
        assertEquals(-6963638195870606035L, DataGen.rowHash("a", "b"));
        assertEquals(-6688352923198908670L, new DataGen.RowHasher().addInt(-42).add("x").sum());
        assertEquals(new DataGen.Checksum(1000, -8357788169183790064L), DataGen.generatedChecksum(0, 1000, 16, 32));
        assertEquals(new DataGen.Checksum(2000, -3638003763945027400L), DataGen.generatedChecksum(500, 2000, 3, 8));
    }

    @Test
    void singleInsertRowsMatchGo() {
        // workloads/singleinsert.go's data=random rows: row 7, and the checksum of rows 0..999.
        assertEquals("YzjA3CyhMyrmcRazjjefND7yUiedrcYH", SingleInsertWorkloads.name(true, 7));
        assertEquals(836434451474470342L, SingleInsertWorkloads.value(true, 7));
        DataGen.Checksum c = new DataGen.Checksum(0, 0);
        for (long i = 0; i < 1000; i++) {
            c = c.add(SingleInsertWorkloads.hash(i, SingleInsertWorkloads.name(true, i), SingleInsertWorkloads.value(true, i)));
        }
        assertEquals(new DataGen.Checksum(1000, -2789498403326692146L), c);
    }
}
