package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JitWarmupTest {
    @Test
    void runsUntilEnoughOperationsAndNeverPastItsTimeLimit() {
        JitWarmup w = new JitWarmup(20_000, 0, 10_000);
        assertTrue(w.more(1_000, 50));
        assertFalse(w.more(20_000, 50));
        assertFalse(w.more(1_000, 10_000), "past the time limit");
        assertFalse(new JitWarmup(0, 0, 0).on());
    }

    @Test
    void maxMillisZeroIsAColdJvmAndSaysSo() {
        // sqlbench reproduce starts the runner with -Dsqlbench.jit.maxMillis=0
        // (launcher.ColdJIT) for a study whose Java program ran cold.
        String before = System.getProperty("sqlbench.jit.maxMillis");
        System.setProperty("sqlbench.jit.maxMillis", "0");
        try {
            JitWarmup w = JitWarmup.fromProperties();
            assertFalse(w.on());
            assertFalse(w.more(0, 0));
            assertTrue(w.describe().startsWith("off: "), w.describe());
        } finally {
            if (before == null) {
                System.clearProperty("sqlbench.jit.maxMillis");
            } else {
                System.setProperty("sqlbench.jit.maxMillis", before);
            }
        }
        assertTrue(JitWarmup.DEFAULT.on());
    }
}
