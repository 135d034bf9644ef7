package sqinn_test

import (
	"maps"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/sqinn"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestOneOffQueriesAreOneQueryRequest: after each query text's first use
// on a connection, the classic family's one-off reads (SimpleQuery, 100 rows;
// SimpleQueryRow, one) are one whole-result Query request each, as
// sqinn-go's README uses it, not a Step per row and a Column per value;
// the prepared reads stay on the per-row requests.
func TestOneOffQueriesAreOneQueryRequest(t *testing.T) {
	needSqinn(t)
	const n = 20
	one := func(got map[string]int64) bool { return maps.Equal(got, map[string]int64{"Query": n}) }
	for _, c := range []struct {
		workload string
		ok       func(got map[string]int64) bool
	}{
		{"SimpleQuery", one},
		{"SimpleQueryRow", one},
		// sqinn-go's whole calls take SQL, not a statement: a prepared
		// read steps through its 100 rows.
		{"PreparedQuery", func(got map[string]int64) bool { return got["Query"] == 0 && got["Step"] >= 100*n }},
	} {
		t.Run(c.workload, func(t *testing.T) {
			w, ok := bench.LookupWorkload(c.workload)
			if !ok {
				t.Fatalf("no workload %s", c.workload)
			}
			e := targettest.NewEnv(t, "sqinn", targettest.SQLite)
			if err := w.Setup(e); err != nil {
				t.Fatal(err)
			}
			defer w.Teardown(e)
			// The first uses: SimpleQueryRow formats 100 texts, one a row.
			const warm = 100
			e.Warm, e.N = 0, warm+1+n
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := bench.Measure(r, 0, warm, bench.NewLatencyHistogram()); err != nil {
				t.Fatal(err)
			}
			before := sqinn.Calls(e.Conn)
			if _, err := bench.Measure(r, warm, 1, bench.NewLatencyHistogram()); err != nil {
				t.Fatal(err)
			}
			second := diff(sqinn.Calls(e.Conn), before)
			before = sqinn.Calls(e.Conn)
			if _, err := bench.Measure(r, warm+1, n, bench.NewLatencyHistogram()); err != nil {
				t.Fatal(err)
			}
			got := diff(sqinn.Calls(e.Conn), before)
			if r.End != nil {
				if err := r.End(); err != nil {
					t.Fatal(err)
				}
			}
			if !c.ok(got) {
				t.Errorf("%d operations sent %v (one operation after the first uses: %v)", n, got, second)
			}
		})
	}
}
