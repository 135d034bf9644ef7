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
    void singleInsertHashesMatchGo() {
        // workloads/singleinsert.go's singleHash of the published literal, of a UUID and of "".
        assertEquals(5596515300753512334L, SingleInsertWorkloads.hash(SingleInsertWorkloads.FIXED));
        assertEquals(4211900366724721810L, SingleInsertWorkloads.hash("123e4567-e89b-42d3-a456-426614174000"));
        assertEquals(-7481729457922847498L, SingleInsertWorkloads.hash(""));
    }
}
