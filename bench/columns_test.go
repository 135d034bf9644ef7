package bench

import (
	"database/sql"
	"strings"
	"testing"
)

// fakeColumns is a row of fixed values for testing ScanColumns.
type fakeColumns []any

func (f fakeColumns) ColumnCount() int          { return len(f) }
func (f fakeColumns) ColumnNull(i int) bool     { return f[i] == nil }
func (f fakeColumns) ColumnInt64(i int) int64   { v, _ := f[i].(int64); return v }
func (f fakeColumns) ColumnFloat(i int) float64 { v, _ := f[i].(float64); return v }
func (f fakeColumns) ColumnText(i int) string   { v, _ := f[i].(string); return v }
func (f fakeColumns) ColumnBytes(i int, buf []byte) []byte {
	v, _ := f[i].(string)
	return append(buf, v...)
}

func TestScanColumnsConvertsEveryDestination(t *testing.T) {
	row := fakeColumns{int64(42), int64(7), 1.5, "Gopher", "raw", int64(1), nil, "x"}
	var (
		i64  int64
		i    int
		f    float64
		s    string
		b    = []byte("old contents")
		ok   bool
		null []byte = []byte("x")
		a    any
	)
	if err := ScanColumns(row, &i64, &i, &f, &s, &b, &ok, &null, &a); err != nil {
		t.Fatal(err)
	}
	if i64 != 42 || i != 7 || f != 1.5 || s != "Gopher" || string(b) != "raw" || !ok || null != nil || a != "x" {
		t.Fatalf("scanned %v %v %v %q %q %v %v %v", i64, i, f, s, b, ok, null, a)
	}
}

func TestScanColumnsRejectsMismatches(t *testing.T) {
	var x int64
	if err := ScanColumns(fakeColumns{int64(1), int64(2)}, &x); err == nil || !strings.Contains(err.Error(), "1 destinations for 2 columns") {
		t.Errorf("count mismatch: err = %v", err)
	}
	var c complex128
	if err := ScanColumns(fakeColumns{int64(1)}, &c); err == nil || !strings.Contains(err.Error(), "unsupported destination") {
		t.Errorf("bad destination: err = %v", err)
	}
}

// rawColumns is fakeColumns with a zero-copy view of its text.
type rawColumns struct {
	fakeColumns
	buf []byte
}

func (r rawColumns) ColumnRaw(int) []byte { return r.buf }

func TestScanColumnsRawBytes(t *testing.T) {
	var raw sql.RawBytes
	if err := ScanColumns(fakeColumns{"copied"}, &raw); err != nil || string(raw) != "copied" {
		t.Fatalf("copy path: %q, %v", raw, err)
	}
	view := []byte("viewed")
	if err := ScanColumns(rawColumns{fakeColumns{"other"}, view}, &raw); err != nil || &raw[0] != &view[0] {
		t.Fatalf("zero-copy path: %q, %v; want the Columns' own bytes", raw, err)
	}
	if err := ScanColumns(fakeColumns{nil}, &raw); err != nil || raw != nil {
		t.Fatalf("NULL: %q, %v", raw, err)
	}
}
