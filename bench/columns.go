package bench

import "fmt"

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

// ScanColumns copies the current row of c into dest, one pointer per column.
// Supported destinations are *int64, *int, *float64, *string, *[]byte,
// *bool and *any.
func ScanColumns(c Columns, dest ...any) error {
	if n := c.ColumnCount(); n != len(dest) {
		return fmt.Errorf("scan: %d destinations for %d columns", len(dest), n)
	}
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
		case *bool:
			*d = c.ColumnInt64(i) != 0
		case *any:
			if c.ColumnNull(i) {
				*d = nil
			} else {
				*d = c.ColumnText(i)
			}
		default:
			return fmt.Errorf("scan: unsupported destination %T for column %d", d, i)
		}
	}
	return nil
}
