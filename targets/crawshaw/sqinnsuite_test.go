package crawshaw_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestSqinnSuiteReadsAsPublished checks the Sqinn-Go suite's reads on
// crawshaw against the published crawshaw program's
// (cvilsmeier/sqinn-go-bench at 8bbb4e0, cmd/bench-craw/craw.go): every
// read takes its statement from the connection's cache (conn.Prepare,
// conn.Prep, sqlitex.Exec), one a query, each goroutine of the concurrent
// test one on its own connection, which it takes from the pool opened
// before the clock (Get(nil)) and puts back in the round; none compiles a
// fresh statement, none opens a connection inside the clock.
func TestSqinnSuiteReadsAsPublished(t *testing.T) {
	targettest.ReadsFromTheCache(t, "crawshaw", "sqinn", "SqinnConcurrent", "goroutines", true)
}

// TestSqinnSuiteHoldsThePooledConnection checks where the Sqinn-Go suite
// takes crawshaw's connection from its sqlitex.Pool, against the published
// crawshaw program: every test but the concurrent one takes it once with
// Get(nil) before its clock starts and puts it back after (Hold in the
// run's Begin, Release in its End, none inside the clock); the concurrent
// test opens its pool of N connections before the clock (N opens in
// Begin), each goroutine taking its own and putting it back in the timed
// round, and closes them after, when it also holds the cell's connection
// for the read that checks every row exactly.
func TestSqinnSuiteHoldsThePooledConnection(t *testing.T) {
	const n = 2
	for _, w := range bench.Workloads() {
		if w.Family != "sqinn" {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			rc := targettest.CountRun(t, "crawshaw", targettest.SQLite, w, n)
			begin, end := map[string]int{"Hold": 1}, map[string]int{"Release": 1}
			if w.Name == "SqinnConcurrent" {
				var g int
				if _, err := fmt.Sscanf(w.Keys, "goroutines=%d", &g); err != nil {
					t.Fatal(err)
				}
				// End reads the table once more, every row checked
				// exactly, on the cell's connection.
				begin, end = map[string]int{"Open": g}, map[string]int{"Hold": 1, "Release": 1}
			}
			// Only the pool's calls: an insert's Begin recreates its
			// tables and its End reads them back (untimed, as the program
			// creates its tables before its clock).
			if got := poolCalls(rc.Begin); !maps.Equal(got, begin) {
				t.Errorf("Begin made %v, want %v", got, begin)
			}
			if got := poolCalls(rc.End); !maps.Equal(got, end) {
				t.Errorf("End made %v, want %v", got, end)
			}
			if got := poolCalls(rc.Clock.Calls); w.Name != "SqinnConcurrent" && len(got) > 0 {
				t.Errorf("%v inside the clock, want none", got)
			}
		})
	}
}

// poolCalls returns the opens, holds and releases of calls.
func poolCalls(calls map[string]int) map[string]int {
	m := map[string]int{}
	for _, k := range []string{"Open", "Hold", "Release"} {
		if calls[k] > 0 {
			m[k] = calls[k]
		}
	}
	return m
}
