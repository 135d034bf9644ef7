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
	if err := ScanColumns(fakeColumns{int64(1), int64(2)}, &x); err == nil ||
		!strings.Contains(err.Error(), "1 destinations for 2 columns") {
		t.Errorf("count mismatch: err = %v", err)
	}
	var c complex128
	if err := ScanColumns(fakeColumns{int64(1)}, &c); err == nil ||
		!strings.Contains(err.Error(), "unsupported destination") {
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

func TestScanColumnsFillsSQLNullTypes(t *testing.T) {
	// A value, a zero value (valid) and NULL (invalid) of each type.
	row := fakeColumns{int64(42), int64(1_700_000_000_000), "Gopher", int64(1), int64(0), int64(0), "", int64(0), nil,
		nil, nil, nil}
	var (
		id, id0, idNull                sql.NullInt32
		created, created0, createdNull sql.NullInt64
		email, email0, emailNull       sql.NullString
		active, active0, activeNull    sql.NullBool
	)
	err := ScanColumns(row, &id, &created, &email, &active, &id0, &created0, &email0, &active0, &idNull, &createdNull,
		&emailNull, &activeNull)
	if err != nil {
		t.Fatal(err)
	}
	if want := (sql.NullInt32{Int32: 42, Valid: true}); id != want {
		t.Errorf("id = %+v, want %+v", id, want)
	}
	if created.Int64 != 1_700_000_000_000 || !created.Valid || email.String != "Gopher" || !email.Valid ||
		!active.Bool || !active.Valid {
		t.Errorf("values scanned as %+v %+v %+v", created, email, active)
	}
	if !id0.Valid || !created0.Valid || !email0.Valid || !active0.Valid || active0.Bool {
		t.Errorf("zero values scanned as %+v %+v %+v %+v, want valid", id0, created0, email0, active0)
	}
	if idNull.Valid || createdNull.Valid || emailNull.Valid || activeNull.Valid {
		t.Errorf("NULLs scanned as %+v %+v %+v %+v, want invalid", idNull, createdNull, emailNull, activeNull)
	}
}

func TestScanColumnsFillsSQLNullFloat64(t *testing.T) {
	var rating, zero, null sql.NullFloat64
	if err := ScanColumns(fakeColumns{0.13, 0.0, nil}, &rating, &zero, &null); err != nil {
		t.Fatal(err)
	}
	if rating != (sql.NullFloat64{Float64: 0.13, Valid: true}) || zero != (sql.NullFloat64{Valid: true}) || null.Valid {
		t.Errorf("scanned %+v %+v %+v, want 0.13, a valid 0 and NULL", rating, zero, null)
	}
}
