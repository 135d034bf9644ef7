package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The bulk paths' generated input, as Go's bulkBlock. */
class BulkRowsTest {
    @Test
    void rowsWithinTheBudgetAreAllMadeBeforeTheClock() {
        // A run whose rows fit UP_FRONT_BYTES has them all generated before
        // its clock starts, as the study generated its input, and never
        // pauses; a run over it is made in blocks, pausing between them.
        BulkInsertWorkloads.Shape s = new BulkInsertWorkloads.Shape(3, 8);
        long fit = 10_000, budget = fit * 3 * (8 + 48); // as UP_FRONT_BYTES, smaller
        BulkInsertWorkloads.Rows in = new BulkInsertWorkloads.Rows(s, true, fit, budget);
        in.timer.reset();
        for (long i : new long[] {0, fit / 2, fit - 1}) {
            in.hold(i);
            assertEquals(DataGen.value(i, 2, 3, 8),
                    new String(in.bytes(i, 2), java.nio.charset.StandardCharsets.US_ASCII));
        }
        assertEquals(0, in.timer.paused(), "a run within the budget paused its clock");
        BulkInsertWorkloads.Rows over = new BulkInsertWorkloads.Rows(s, false, fit + 1, budget);
        over.timer.reset();
        over.hold(BulkInsertWorkloads.BLOCK_ROWS);
        assertEquals(DataGen.value(BulkInsertWorkloads.BLOCK_ROWS, 0, 3, 8),
                over.string(BulkInsertWorkloads.BLOCK_ROWS, 0));
        assertEquals(true, over.timer.paused() > 0, "a run over the budget is made in blocks, the clock paused");
    }
}
