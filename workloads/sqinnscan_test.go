package workloads

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// callsRow is a native row of the cars table (id, company, model) that
// records the column calls made on it.
type callsRow struct {
	id    int
	calls []string
}

func (r *callsRow) add(call string, i int) { r.calls = append(r.calls, call+" "+strconv.Itoa(i)) }

func (r *callsRow) Scan(dest ...any) error { return bench.ScanColumns(r, dest...) }
func (r *callsRow) ColumnCount() int {
	r.calls = append(r.calls, "ColumnCount")
	return 3
}
func (r *callsRow) ColumnNull(i int) bool     { r.add("ColumnNull", i); return false }
func (r *callsRow) ColumnInt64(i int) int64   { r.add("ColumnInt64", i); return int64(r.id) }
func (r *callsRow) ColumnFloat(i int) float64 { r.add("ColumnFloat", i); return 0 }
func (r *callsRow) ColumnText(i int) string {
	r.add("ColumnText", i)
	return [...]string{"", "Company ", "Model "}[i] + strconv.Itoa(r.id)
}
func (r *callsRow) ColumnBytes(i int, buf []byte) []byte { r.add("ColumnBytes", i); return buf }

// TestSqinnNativeRowsReadAsPublished: the Sqinn-Go suite reads a native
// row as the published crawshaw program does (cmd/bench-craw/craw.go at
// 8bbb4e0): per column its type (stmt.ColumnType) and then, unless NULL,
// its value with the typed call, and nothing else (no column count). It
// read them through bench.ScanColumns before: the column count, and the
// values without their types, 5 calls into SQLite a cars row (step
// included) where the program makes 6.
func TestSqinnNativeRowsReadAsPublished(t *testing.T) {
	r := sqinnCarsTable().reader(1, false)
	row := &callsRow{id: 1}
	if err := r.row(row); err != nil {
		t.Fatal(err)
	}
	want := []string{"ColumnNull 0", "ColumnInt64 0", "ColumnNull 1", "ColumnText 1", "ColumnNull 2", "ColumnText 2"}
	if !slices.Equal(row.calls, want) {
		t.Errorf("a cars row read with %v, the published crawshaw program's %v", row.calls, want)
	}
	if got := fmt.Sprint(r.id.Int32, r.vals[0], r.vals[1]); got != "1 &{Company 1 true} &{Model 1 true}" {
		t.Errorf("read %s", got)
	}
}
