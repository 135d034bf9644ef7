package sqinn

import (
	"database/sql"
	"fmt"
	"strconv"

	"github.com/cvilsmeier/sqinn-go/sqinn"
)

// ExecRows implements bench.RowsExecer with one sqinn-go Exec: one request
// that carries every row's values, handed to sqinn-go as they are (an int
// goes as sqinn's 32-bit int, as in the published program).
func (c *conn) ExecRows(query string, nparams int, values []any) error {
	if nparams <= 0 || len(values)%nparams != 0 {
		return fmt.Errorf("exec rows: %d values are no whole number of rows of %d", len(values), nparams)
	}
	if err := c.evict(); err != nil {
		return err
	}
	_, err := c.sq.Exec(query, len(values)/nparams, nparams, values)
	return err
}

// QueryWhole implements bench.WholeQuerier with one sqinn-go Query: one
// request that returns every row, each column read as the sqinn type its
// destination maps to (sql.NullInt32 and int to sqinn's 32-bit int, as the
// published program reads its integers).
func (c *conn) QueryWhole(query string, dest []any, fn func() error, args ...any) error {
	c.types = c.types[:0]
	for i, d := range dest {
		t, err := wholeType(d)
		if err != nil {
			return fmt.Errorf("column %d: %w", i, err)
		}
		c.types = append(c.types, t)
	}
	if err := c.evict(); err != nil {
		return err
	}
	rows, err := c.sq.Query(query, args, c.types)
	if err != nil {
		return err
	}
	for j := range rows {
		// Each value by its address: sqinn's AnyValue is a struct of every
		// type's value (104 bytes), which a copy per value moved, beside
		// the published adapter reading the one field it wants in place.
		vals := rows[j].Values
		for i, d := range dest {
			store(d, &vals[i])
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

// wholeType returns the sqinn column type that reads into d.
func wholeType(d any) (byte, error) {
	switch d.(type) {
	case *int, *sql.NullInt32, *bool, *sql.NullBool:
		return sqinn.ValInt, nil
	case *int64, *sql.NullInt64:
		return sqinn.ValInt64, nil
	case *float64, *sql.NullFloat64:
		return sqinn.ValDouble, nil
	case *string, *sql.NullString:
		return sqinn.ValText, nil
	case *[]byte:
		return sqinn.ValBlob, nil
	}
	return 0, fmt.Errorf("unsupported destination %T", d)
}

// store copies v, read as wholeType(d), into d.
func store(d any, v *sqinn.AnyValue) {
	switch d := d.(type) {
	case *int:
		*d = v.Int.Value
	case *sql.NullInt32:
		*d = sql.NullInt32{Int32: int32(v.Int.Value), Valid: v.Int.Set}
	case *bool:
		*d = v.Int.Value != 0
	case *sql.NullBool:
		*d = sql.NullBool{Bool: v.Int.Value != 0, Valid: v.Int.Set}
	case *int64:
		*d = v.Int64.Value
	case *sql.NullInt64:
		*d = sql.NullInt64{Int64: v.Int64.Value, Valid: v.Int64.Set}
	case *float64:
		*d = v.Double.Value
	case *sql.NullFloat64:
		*d = sql.NullFloat64{Float64: v.Double.Value, Valid: v.Double.Set}
	case *string:
		*d = v.String.Value
	case *sql.NullString:
		*d = sql.NullString{String: v.String.Value, Valid: v.String.Set}
	case *[]byte:
		*d = v.Blob.Value
	}
}

// Info implements bench.Informer: sqinn-version is the sqinn program's
// version and protocol as it reports them.
func (c *conn) Info() ([][2]string, error) {
	v, err := c.sq.SqinnVersion()
	if err != nil {
		return nil, fmt.Errorf("sqinn version: %w", err)
	}
	io, err := c.sq.IoVersion()
	if err != nil {
		return nil, fmt.Errorf("sqinn protocol version: %w", err)
	}
	return [][2]string{{"sqinn-version", "sqinn v" + v + " (protocol " + strconv.Itoa(int(io)) + ")"}}, nil
}
