// Package textrow reads a result row in the text format of the servers'
// wire protocols (each value its bytes as text, nil for NULL) into the
// destinations of a bench.Row's Scan: the protocol floors' one conversion
// (targets/pgproto, targets/mysqlproto), done as a program using the
// protocol alone would, with strconv and nothing else.
package textrow

import (
	"errors"
	"fmt"
	"strconv"
)

// Row is one row of text values. It implements bench.Row; its values are
// those the protocol's reader handed over, valid until its next read.
type Row struct {
	Values [][]byte
}

// errNull is the error of a NULL scanned into a destination that cannot
// hold one.
var errNull = errors.New("NULL value")

// Scan converts the row's values into dest, one pointer per column: *int64,
// *int, *string, *[]byte (a copy) or *any (the text as a string; nil for
// NULL). A NULL is an error except into *[]byte and *any.
func (r *Row) Scan(dest ...any) error {
	if len(dest) != len(r.Values) {
		return fmt.Errorf("scan: %d destinations for %d columns", len(dest), len(r.Values))
	}
	for i, v := range r.Values {
		if err := scan(v, dest[i]); err != nil {
			return fmt.Errorf("scan column %d: %w", i, err)
		}
	}
	return nil
}

func scan(v []byte, dest any) error {
	switch d := dest.(type) {
	case *int64:
		if v == nil {
			return errNull
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return err
		}
		*d = n
	case *int:
		if v == nil {
			return errNull
		}
		n, err := strconv.Atoi(string(v))
		if err != nil {
			return err
		}
		*d = n
	case *string:
		if v == nil {
			return errNull
		}
		*d = string(v)
	case *[]byte:
		if v == nil {
			*d = nil
			return nil
		}
		*d = append((*d)[:0], v...)
	case *any:
		if v == nil {
			*d = nil
			return nil
		}
		*d = string(v)
	default:
		return fmt.Errorf("cannot scan into %T", dest)
	}
	return nil
}
