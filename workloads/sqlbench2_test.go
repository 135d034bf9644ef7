package workloads

import (
	"strconv"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestSQLBench2PublishedCounts pins the second generation's operation
// counts to those of its published run of 2013-11-02
// (go-sql-driver/sql-benchmark main.go since commit d4a9ca8): 250,000 for
// SimpleExec and PreparedExec (sqlbench's SimpleDo and PreparedDo) and the
// QueryRow and echo tests, 50,000 for the large reads, 500,000 for the
// concurrent tests.
func TestSQLBench2PublishedCounts(t *testing.T) {
	want := map[string]int{
		"SimpleDo": 250_000, "PreparedDo": 250_000,
		"SimpleQueryRowSelect1": 250_000, "PreparedQueryRowSelect1": 250_000,
		"PreparedQueryRowParam": 250_000, "EchoMixed5": 250_000,
		"SelectLargeString": 50_000, "SelectPreparedLargeString": 50_000,
		"SelectLargeBytes": 50_000, "SelectPreparedLargeBytes": 50_000,
		"SelectLargeRaw": 50_000, "SelectPreparedLargeRaw": 50_000,
		"PreparedExecConcurrent/conns=4": 500_000, "PreparedQueryConcurrent/conns=16": 500_000,
	}
	for id, ops := range want {
		w, ok := bench.LookupWorkload(id)
		if !ok {
			t.Errorf("%s not registered", id)
			continue
		}
		if w.Ops != ops {
			t.Errorf("%s: %d operations per run at scale 1, want the published %d", id, w.Ops, ops)
		}
	}
	for _, n := range concurrencyLevels {
		for _, name := range []string{"PreparedExecConcurrent", "PreparedQueryConcurrent"} {
			if w, _ := bench.LookupWorkload(name + "/conns=" + strconv.Itoa(n)); w.Pool != n {
				t.Errorf("%s/conns=%d: cell pool %d, want %d (one pool for the cell's life)", name, n, w.Pool, n)
			}
		}
	}
}
