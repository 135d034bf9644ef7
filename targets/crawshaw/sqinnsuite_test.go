package crawshaw_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestSqinnSuiteReadsAsPublished checks the Sqinn-Go suite's reads on
// crawshaw against the published crawshaw program's
// (cvilsmeier/sqinn-go-bench at 8bbb4e0, cmd/bench-craw/craw.go): every
// read takes its statement from the connection's cache (conn.Prepare,
// conn.Prep, sqlitex.Exec), one a query, each goroutine of the concurrent
// test one on its own connection; none compiles a fresh statement.
func TestSqinnSuiteReadsAsPublished(t *testing.T) {
	const n = 3
	for _, w := range bench.Workloads() {
		if w.Family != "sqinn" || strings.HasSuffix(w.Name, "Insert") {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			want := map[string]int{"QueryCached": n}
			if w.Name == "SqinnConcurrent" {
				var g int
				fmt.Sscanf(w.Keys, "goroutines=%d", &g)
				want["QueryCached"] = g * n
			}
			if got := targettest.CountInClock(t, "crawshaw", targettest.SQLite, w, n).Calls; !maps.Equal(got, want) {
				t.Errorf("%d operations made %v inside the clock, the published program %v", n, got, want)
			}
		})
	}
}
