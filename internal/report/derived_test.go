package report

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestOverheadPairsStudyDrivers: besides a driver's own sql/native twins,
// the overhead view sets eatonphil (gosqlite, native) beside mattn
// (database/sql) and pgx (native) beside lib/pq as the database/sql-overhead
// study did, and crawshaw beside mattn as the Sqinn-Go study did, cell by
// cell, and pairs nothing across workloads or shapes.
func TestOverheadPairsStudyDrivers(t *testing.T) {
	var text strings.Builder
	for i := range 3 {
		for _, line := range []string{
			"BenchmarkBulkInsert/db=sqlite/driver=mattn/api=sql/shape=16x32/path=prepared 100 %d ns/op %d ops/s",
			"BenchmarkBulkInsert/db=sqlite/driver=eatonphil/api=native/shape=16x32/path=prepared 100 %d ns/op %d ops/s",
			"BenchmarkBulkInsert/db=sqlite/driver=eatonphil/api=native/shape=3x8/path=prepared 100 %d ns/op %d ops/s",
			"BenchmarkSimpleExec/db=sqlite/driver=ncruces/api=sql 100 %d ns/op %d ops/s",
			"BenchmarkSimpleExec/db=sqlite/driver=ncruces/api=native 100 %d ns/op %d ops/s",
			"BenchmarkSimpleExec/db=sqlite/driver=mattn/api=sql 100 %d ns/op %d ops/s",
			"BenchmarkSimpleExec/db=sqlite/driver=crawshaw/api=native 100 %d ns/op %d ops/s",
			"BenchmarkBulkInsert/db=postgres/driver=pq/api=sql/shape=16x32/path=copy 100 %d ns/op %d ops/s",
			"BenchmarkBulkInsert/db=postgres/driver=pgx/api=native/shape=16x32/path=copy 100 %d ns/op %d ops/s",
		} {
			ns := 1000 * (1 + strings.Count(line, "native")) // native cells twice as slow, for a ratio of 0.5
			ns += i
			text.WriteString(
				strings.Replace(strings.Replace(line, "%d", strconv.Itoa(ns), 1), "%d", strconv.Itoa(1e9/ns), 1) + "\n")
		}
	}
	var rs []*benchfmt.Result
	r := benchfmt.NewReader(strings.NewReader(text.String()), "t")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			rs = append(rs, res.Clone())
		}
	}
	got := map[string]float64{}
	for _, p := range New(rs, nil, nil).Overhead() {
		got[p.Driver+" "+p.Row] = p.Ratio()
	}
	want := []string{"ncruces SimpleExec", "eatonphil vs mattn BulkInsert/shape=16x32/path=prepared",
		"crawshaw vs mattn SimpleExec", "pgx vs pq BulkInsert/shape=16x32/path=copy"}
	if len(got) != len(want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
	for _, k := range want {
		if r, ok := got[k]; !ok || r < 0.49 || r > 0.51 {
			t.Errorf("pair %q: ratio %v (found %v), want 0.5", k, r, ok)
		}
	}
}
