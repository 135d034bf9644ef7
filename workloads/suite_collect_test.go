package workloads

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// nativeRow is a row of a native target as the suite's reads see it (a
// bench.Columns) that records every call made on it. Its integer columns
// are all 0, the value on which a NULL-aware scan would ask the library
// for the column's type.
type nativeRow struct {
	text  map[int]string // the text columns; the others are integers
	calls []string
}

func (r *nativeRow) note(f string, i int) { r.calls = append(r.calls, fmt.Sprintf("%s(%d)", f, i)) }

func (r *nativeRow) ColumnCount() int      { r.note("ColumnCount", -1); return 4 * len(r.text) }
func (r *nativeRow) ColumnNull(i int) bool { r.note("ColumnNull", i); return false }
func (r *nativeRow) ColumnInt64(i int) int64 {
	r.note("ColumnInt64", i)
	return 0
}
func (r *nativeRow) ColumnFloat(i int) float64 { r.note("ColumnFloat", i); return 0 }
func (r *nativeRow) ColumnText(i int) string   { r.note("ColumnText", i); return r.text[i] }
func (r *nativeRow) ColumnBytes(i int, buf []byte) []byte {
	r.note("ColumnBytes", i)
	return append(buf[:0], r.text[i]...)
}

// Scan is a native adapter's: bench.ScanColumns on the row.
func (r *nativeRow) Scan(dest ...any) error { return bench.ScanColumns(r, dest...) }

// sqlRow is a database/sql row: Scan only. It records its destinations'
// types.
type sqlRow struct{ dests []string }

func (r *sqlRow) Scan(dest ...any) error {
	for _, d := range dest {
		r.dests = append(r.dests, fmt.Sprintf("%T", d))
	}
	return nil
}

// TestSuiteReadsNativeRowsAsPublished holds the suite's reads of a native
// row to the published native adapters' calls (crawshaw's and zombiezen's
// FindUsers and FindUsersArticlesComments in cvilsmeier/go-sqlite-bench):
// one typed call per column, in column order, and nothing else: no column
// count, no NULL check, not even on a value of 0. A database/sql row still
// scans into the published adapter's sql.Null types.
func TestSuiteReadsNativeRowsAsPublished(t *testing.T) {
	user := []string{"ColumnInt64(0)", "ColumnInt64(1)", "ColumnText(2)", "ColumnInt64(3)"}
	r := &nativeRow{text: map[int]string{2: "e"}}
	u := newUserCollect()
	if err := u.row(r); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.calls, user) {
		t.Errorf("a users row made %v, the published adapter %v", r.calls, user)
	}
	if got, want := u.take(), []userRec{{created: time.UnixMilli(0), email: "e"}}; !slices.Equal(got, want) {
		t.Errorf("collected %v, want %v", got, want)
	}

	join := slices.Clone(user)
	for _, at := range []int{4, 8} {
		join = append(join, fmt.Sprintf("ColumnInt64(%d)", at), fmt.Sprintf("ColumnInt64(%d)", at+1),
			fmt.Sprintf("ColumnInt64(%d)", at+2), fmt.Sprintf("ColumnText(%d)", at+3))
	}
	for name, read := range map[string]func(*nativeRow) error{
		"complex": func(r *nativeRow) error { return newJoinCollect().row(r) },
		"real":    func(r *nativeRow) error { return newRealCollect().row(r) },
	} {
		r := &nativeRow{text: map[int]string{2: "e", 7: "a", 11: "c"}}
		if err := read(r); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.calls, join) {
			t.Errorf("a joined row of the %s read made %v, the published adapter %v", name, r.calls, join)
		}
	}

	s := &sqlRow{}
	if err := newUserCollect().row(s); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(s.dests, " "),
		"*sql.NullInt32 *sql.NullInt64 *sql.NullString *sql.NullBool"; got != want {
		t.Errorf("a database/sql users row scanned into %s, the published adapter's %s", got, want)
	}
}
