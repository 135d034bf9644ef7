package bench

import (
	"database/sql"
	"fmt"
)

// Columns is the typed column access that native SQLite-style APIs offer on
// their current row. ScanColumns turns it into Row.Scan semantics so native
// targets share one conversion.
type Columns interface {
	ColumnCount() int
	ColumnNull(i int) bool
	ColumnInt64(i int) int64
	ColumnFloat(i int) float64
	ColumnText(i int) string
	// ColumnBytes appends column i's bytes to buf and returns it.
	ColumnBytes(i int, buf []byte) []byte
}

// RawColumns is implemented by a Columns whose API can show a column's bytes
// without copying them (the counterpart of database/sql's sql.RawBytes): the
// slice is valid only until the row advances.
type RawColumns interface {
	// ColumnRaw returns column i's bytes without copying; nil for NULL.
	ColumnRaw(i int) []byte
}

// ScanColumns copies the current row of c into dest, one pointer per column.
// Supported destinations are *int64, *int, *float64, *string, *[]byte,
// *sql.RawBytes, *bool, *any, *sql.NullInt64, *sql.NullInt32,
// *sql.NullFloat64, *sql.NullString and *sql.NullBool. A *any receives nil for NULL and the text
// of any other value. A *sql.RawBytes receives the column's bytes without a
// copy when c implements RawColumns, else a copy into the slice's own buffer
// (reused from row to row); either way it is valid only during the RowFunc.
func ScanColumns(c Columns, dest ...any) error {
	if n := c.ColumnCount(); n != len(dest) {
		return fmt.Errorf("scan: %d destinations for %d columns", len(dest), n)
	}
	raw, isRaw := c.(RawColumns)
	for i, d := range dest {
		switch d := d.(type) {
		case *int64:
			*d = c.ColumnInt64(i)
		case *int:
			*d = int(c.ColumnInt64(i))
		case *float64:
			*d = c.ColumnFloat(i)
		case *string:
			*d = c.ColumnText(i)
		case *[]byte:
			if c.ColumnNull(i) {
				*d = nil
			} else {
				*d = c.ColumnBytes(i, (*d)[:0])
			}
		case *sql.RawBytes:
			switch {
			case c.ColumnNull(i):
				*d = nil
			case isRaw:
				*d = raw.ColumnRaw(i)
			default:
				*d = c.ColumnBytes(i, (*d)[:0])
			}
		case *bool:
			*d = c.ColumnInt64(i) != 0
		case *any:
			if c.ColumnNull(i) {
				*d = nil
			} else {
				*d = c.ColumnText(i)
			}
		// The sql.Null types ask whether the column is NULL only when its
		// value reads as zero (NULL reads as 0 and ""): a native program
		// that reads typed columns pays for no type check per column.
		case *sql.NullInt64:
			d.Int64 = c.ColumnInt64(i)
			d.Valid = d.Int64 != 0 || !c.ColumnNull(i)
		case *sql.NullInt32:
			v := c.ColumnInt64(i)
			d.Int32 = int32(v)
			d.Valid = v != 0 || !c.ColumnNull(i)
		case *sql.NullFloat64:
			d.Float64 = c.ColumnFloat(i)
			d.Valid = d.Float64 != 0 || !c.ColumnNull(i)
		case *sql.NullString:
			d.String = c.ColumnText(i)
			d.Valid = d.String != "" || !c.ColumnNull(i)
		case *sql.NullBool:
			v := c.ColumnInt64(i)
			d.Bool = v != 0
			d.Valid = v != 0 || !c.ColumnNull(i)
		default:
			return fmt.Errorf("scan: unsupported destination %T for column %d", d, i)
		}
	}
	return nil
}

// RowWidth returns how many columns row has, for a caller that scans a
// result it does not know the shape of (a script's statement), and whether
// the row can say: a Columns (the native SQLite-style APIs), database/sql's
// *sql.Rows (Columns), or a row that shows its raw values (pgx's
// RawValues). Calling it costs database/sql an allocation: call it once
// per result.
func RowWidth(row Row) (int, bool) {
	switch r := row.(type) {
	case interface{ ColumnCount() int }:
		return r.ColumnCount(), true
	case interface{ Columns() ([]string, error) }:
		cols, err := r.Columns()
		return len(cols), err == nil
	case interface{ RawValues() [][]byte }:
		return len(r.RawValues()), true
	}
	return 0, false
}
