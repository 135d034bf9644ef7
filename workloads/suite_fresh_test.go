package workloads_test

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestSuiteRunsStartAsGoSQLiteBenchsTests: go-sqlite-bench removes its
// database files before each test, so every run of the suite's inserts and
// of its large read starts on a fresh file (bench.Workload.FreshDB); the
// large read is one query a run, set up by the large insert's own run of
// the program's users and timed with no collection before it
// (bench.Run.Uncollected), as the program reads once right after its
// insert; the reads of the other tests keep the file their cell filled.
func TestSuiteRunsStartAsGoSQLiteBenchsTests(t *testing.T) {
	fresh := map[string]bool{"SuiteSimpleInsert": true, "SuiteRealInsert": true, "SuiteComplexInsert": true,
		"SuiteLargeInsert": true, "SuiteLargeQuery": true}
	n := 0
	for _, w := range bench.Workloads() {
		if w.Family != "suite" {
			continue
		}
		if w.FreshDB != fresh[w.Name] {
			t.Errorf("%s: FreshDB %v, want %v", w.ID(), w.FreshDB, fresh[w.Name])
		}
		if w.Name != "SuiteLargeQuery" {
			continue
		}
		n++
		if w.Ops != 1 {
			t.Errorf("%s: %d queries a run, want 1", w.ID(), w.Ops)
		}
		if !strings.HasSuffix(w.Keys, "=2000") {
			continue // the others differ only in their size
		}
		e := targettest.NewEnv(t, "modernc", targettest.SQLite)
		e.Scale = 0.001
		if err := w.Setup(e); err != nil {
			t.Fatal(err)
		}
		var rows, emails int64
		if err := e.Conn.QueryRow("SELECT count(*), count(DISTINCT email) FROM "+e.Dialect.Table("users"),
			func(r bench.Row) error { return r.Scan(&rows, &emails) }); err != nil {
			t.Fatal(err)
		}
		if rows != 10 || emails != 1 {
			t.Errorf("%s: set up %d users with %d emails, want 10 with one", w.ID(), rows, emails)
		}
		e.N = 1
		r, err := w.Begin(e)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Uncollected {
			t.Errorf("%s: the read starts after a collection", w.ID())
		}
		if _, err := bench.Measure(r, 0, 1, bench.NewLatencyHistogram()); err != nil {
			t.Fatal(err)
		}
		if err := w.Teardown(e); err != nil {
			t.Fatal(err)
		}
	}
	if n != 6 {
		t.Errorf("%d large reads, want 6", n)
	}
}
