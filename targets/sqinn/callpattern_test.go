package sqinn_test

import (
	"context"
	"maps"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/sqinn"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestSqinnSuiteCallsAsPublished checks the Sqinn-Go suite's requests to
// sqinn, counted at the client, against the published program's
// (cvilsmeier/sqinn-go-bench, cmd/bench-sqinn/sqinn.go): an insert sends all
// the rows of a table in one Exec between the BEGIN and COMMIT Execs, a
// read is one Query, and nothing goes through the per-row and per-value
// requests (Prepare, Bind, Step, Column, Reset, Finalize).
func TestSqinnSuiteCallsAsPublished(t *testing.T) {
	const n = 50
	checkRequests(t, "sqinn", "SqinnConcurrent", n, func(w bench.Workload) map[string]int64 {
		switch w.Name {
		case "SqinnSimpleInsert":
			return map[string]int64{"Exec": 3} // BEGIN (inside the clock, as published), the rows, COMMIT
		case "SqinnComplexInsert":
			return map[string]int64{"Exec": 9} // BEGIN, the rows, COMMIT per table
		}
		return map[string]int64{"Query": n}
	})
}

// checkRequests runs every workload of family n operations on sqinn and
// compares the requests its connection sent inside the clock with expect(w)
// (nil: the workload has no published pattern). The family's concurrent
// workload sends none on its own connection: each client opens one per
// round, as published, and sends one Query on it.
func checkRequests(t *testing.T, family, concurrent string, n int, expect func(bench.Workload) map[string]int64) {
	t.Helper()
	needSqinn(t)
	for _, w := range bench.Workloads() {
		if w.Family != family {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			got, others, opened := countSqinnCalls(t, w, n)
			want, wantOthers := expect(w), map[string]int64(nil)
			if w.Name == concurrent {
				g := int64(opened) / int64(n)
				if g < 2 || int64(opened) != g*int64(n) || !strings.HasSuffix(w.Keys, "="+itoa(g)) {
					t.Fatalf("%d connections opened in %d rounds", opened, n)
				}
				want, wantOthers = map[string]int64{}, map[string]int64{"Query": g * int64(n)}
			}
			if want == nil {
				t.Fatalf("no published request pattern for %s", w.ID())
			}
			if !maps.Equal(got, want) {
				t.Errorf("%d operations sent %v to sqinn, the published program %v", n, got, want)
			}
			if !maps.Equal(others, wantOthers) && (len(others) > 0 || len(wantOthers) > 0) {
				t.Errorf("the goroutines' connections sent %v to sqinn, the published program %v", others, wantOthers)
			}
		})
	}
}

// diff returns the counts of after less those of before, without zeros.
func diff(after, before map[string]int64) map[string]int64 {
	d := map[string]int64{}
	for k, v := range after {
		if v -= before[k]; v != 0 {
			d[k] = v
		}
	}
	return d
}

// sum adds b's counts to a, which may be nil.
func sum(a, b map[string]int64) map[string]int64 {
	if a == nil {
		a = map[string]int64{}
	}
	for k, v := range b {
		a[k] += v
	}
	return a
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestSqinnSuiteDetectsWrongData corrupts one row of each Sqinn-Go table
// after it is written and expects the workload to fail: the whole-result
// reads check every row, and the inserts' read-back checks what the one
// Exec wrote.
func TestSqinnSuiteDetectsWrongData(t *testing.T) {
	needSqinn(t)
	for id, table := range map[string]string{
		"SqinnSimpleQuery": "users", "SqinnMany/n=10": "cars", "SqinnLarge/size=2000": "plants",
		"SqinnConcurrent/goroutines=2": "books", "SqinnComplexQuery": "locations",
		"SqinnSimpleInsert": "users", "SqinnComplexInsert": "locations",
	} {
		t.Run(id, func(t *testing.T) {
			w, ok := bench.LookupWorkload(id)
			if !ok {
				t.Fatalf("workload %s not registered", id)
			}
			e := targettest.NewEnv(t, "sqinn", targettest.SQLite)
			if err := w.Setup(e); err != nil {
				t.Fatal(err)
			}
			defer w.Teardown(e)
			corrupt := func() error {
				return e.Conn.Exec("UPDATE " + e.Dialect.Table(table) + " SET name = 'wrong' WHERE rowid = 3")
			}
			if table == "cars" {
				corrupt = func() error {
					return e.Conn.Exec("UPDATE " + e.Dialect.Table(table) + " SET model = 'wrong' WHERE id = 3")
				}
			}
			const n = 5
			e.Warm, e.N = 0, n
			insert := strings.HasSuffix(id, "Insert")
			if !insert {
				if err := corrupt(); err != nil {
					t.Fatal(err)
				}
			}
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			_, err = bench.Measure(r, 0, n, bench.NewLatencyHistogram())
			if insert && err == nil {
				if err = corrupt(); err != nil {
					t.Fatal(err)
				}
			}
			if r.End != nil {
				if eerr := r.End(); err == nil {
					err = eerr
				}
			}
			if err == nil {
				t.Fatalf("%s on sqinn with row 3 of %s corrupted: no error", id, table)
			}
			t.Logf("failed as expected: %v", err)
		})
	}
}

// countSqinnCalls runs n operations of w on sqinn and returns the requests
// the timed run sent on the workload's connection, those the connections
// its clients opened sent (less opening and closing them and the session's
// PRAGMAs, which the published programs run after opening too), and how
// many connections the clients opened.
func countSqinnCalls(t *testing.T, w bench.Workload, n int) (got, others map[string]int64, opened int) {
	t.Helper()
	e := targettest.NewEnv(t, "sqinn", targettest.SQLite)
	var mu sync.Mutex
	var conns []bench.Conn
	open := e.Open
	e.Open = func(ctx context.Context, pool int) (bench.Conn, error) {
		c, err := open(ctx, pool)
		if err == nil {
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
		return c, err
	}
	if err := w.Setup(e); err != nil {
		t.Fatal(err)
	}
	defer w.Teardown(e)
	e.Warm, e.N = 0, n
	r, err := w.Begin(e)
	if err != nil {
		t.Fatal(err)
	}
	before := sqinn.Calls(e.Conn)
	_, err = bench.Measure(r, 0, n, bench.NewLatencyHistogram())
	got = diff(sqinn.Calls(e.Conn), before)
	if r.End != nil {
		if eerr := r.End(); err == nil {
			err = eerr
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range conns {
		others = sum(others, sqinn.Calls(c))
	}
	delete(others, "other")
	if others != nil {
		others["Exec"] -= int64(len(conns) * len(e.Dialect.Setup))
		if others["Exec"] == 0 {
			delete(others, "Exec")
		}
	}
	return got, others, len(conns)
}

// TestGoSQLiteBenchCallsAsPublished checks the go-sqlite-bench suite's
// requests to sqinn, counted at the client, against the published
// program's sqinn adapter (cvilsmeier/go-sqlite-bench at 91b73d7,
// cmd/bench-sqinn/sqinn.go, called as app/app.go calls it): one request
// per call of the application. An insert of a table is BEGIN, one Exec of
// all its rows, COMMIT (the complex test three times); the real test is,
// per user, BEGIN, one Exec for the user, one for each of its 20 articles
// and 400 comments, COMMIT; every read is one Query (each goroutine's, in
// the concurrent test); nothing goes through the per-row and per-value
// requests (Prepare, Bind, Step, Column, Reset, Finalize).
func TestGoSQLiteBenchCallsAsPublished(t *testing.T) {
	const n = 20
	checkRequests(t, "suite", "SuiteConcurrent", n, func(w bench.Workload) map[string]int64 {
		switch {
		case w.Name == "SuiteSimpleInsert" || w.Name == "SuiteLargeInsert":
			return map[string]int64{"Exec": 3}
		case w.Name == "SuiteComplexInsert":
			return map[string]int64{"Exec": 9}
		case w.Name == "SuiteRealInsert":
			return map[string]int64{"Exec": (1 + 1 + 20 + 20*20 + 1) * n}
		case strings.HasSuffix(w.Name, "Query") || w.Name == "SuiteMany":
			return map[string]int64{"Query": n}
		}
		return nil
	})
}
