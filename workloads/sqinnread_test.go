package workloads

import (
	"context"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestSqinnReadsHoldNoExpectedTable checks that beginning a Sqinn-Go read
// at the published sizes allocates a handful of objects, not one or more a
// row: the rows read are checked against values computed from their keys
// as they come, as no published program holds a table of the values it
// wrote either. Such a table (a million rows of the simple test's users)
// stayed live through the timed read, and the garbage collector marked it
// on every cycle (some 16% of the read's CPU time with sqinn).
func TestSqinnReadsHoldNoExpectedTable(t *testing.T) {
	for _, w := range bench.Workloads() {
		if w.Family != sqinnFamily || w.Whole { // the inserts read back in End only
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			e := bench.Env{Ctx: context.Background(), Dialect: bench.DialectOf(bench.SQLite), Scale: 1, N: w.Ops}
			allocs := testing.AllocsPerRun(1, func() {
				if _, err := w.Begin(e); err != nil {
					t.Fatal(err)
				}
			})
			if allocs > 100 {
				t.Errorf("beginning a run allocated %.0f objects", allocs)
			}
		})
	}
}
