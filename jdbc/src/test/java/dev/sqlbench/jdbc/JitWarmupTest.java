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
}
