package gomysql

import (
	"fmt"
	"math"
	"strconv"

	"github.com/go-mysql-org/go-mysql/mysql"

	"github.com/sqlbench/sqlbench/bench"
)

// row adapts one row of go-mysql values to bench.Row through
// bench.ScanColumns. go-mysql parses integer and floating-point columns
// into numbers (in both protocols) and hands other columns over as bytes;
// a conversion the value does not allow is kept and returned by Scan.
type row struct {
	v       []mysql.FieldValue
	err     error
	scratch []byte // the text of a numeric column for ColumnRaw
}

// Scan implements bench.Row.
func (r *row) Scan(dest ...any) error {
	r.err = nil
	if err := bench.ScanColumns(r, dest...); err != nil {
		return err
	}
	return r.err
}

func (r *row) fail(i int, err error) {
	if r.err == nil {
		r.err = fmt.Errorf("column %d: %w", i, err)
	}
}

// ColumnCount implements bench.Columns.
func (r *row) ColumnCount() int { return len(r.v) }

// ColumnNull implements bench.Columns.
func (r *row) ColumnNull(i int) bool { return r.v[i].Type == mysql.FieldValueTypeNull }

// ColumnInt64 implements bench.Columns.
func (r *row) ColumnInt64(i int) int64 {
	f := &r.v[i]
	switch f.Type {
	case mysql.FieldValueTypeSigned:
		return f.AsInt64()
	case mysql.FieldValueTypeUnsigned:
		u := f.AsUint64()
		if u > math.MaxInt64 {
			r.fail(i, fmt.Errorf("%d overflows int64", u))
		}
		return int64(u)
	case mysql.FieldValueTypeFloat:
		v := f.AsFloat64()
		if v != math.Trunc(v) || v < math.MinInt64 || v >= math.MaxInt64 {
			r.fail(i, fmt.Errorf("%v is not an int64", v))
		}
		return int64(v)
	case mysql.FieldValueTypeString:
		v, err := strconv.ParseInt(string(f.AsString()), 10, 64)
		if err != nil {
			r.fail(i, err)
		}
		return v
	}
	return 0
}

// ColumnFloat implements bench.Columns.
func (r *row) ColumnFloat(i int) float64 {
	f := &r.v[i]
	switch f.Type {
	case mysql.FieldValueTypeSigned:
		return float64(f.AsInt64())
	case mysql.FieldValueTypeUnsigned:
		return float64(f.AsUint64())
	case mysql.FieldValueTypeFloat:
		return f.AsFloat64()
	case mysql.FieldValueTypeString:
		v, err := strconv.ParseFloat(string(f.AsString()), 64)
		if err != nil {
			r.fail(i, err)
		}
		return v
	}
	return 0
}

// ColumnText implements bench.Columns.
func (r *row) ColumnText(i int) string {
	if r.v[i].Type == mysql.FieldValueTypeString {
		return string(r.v[i].AsString())
	}
	return string(r.appendText(nil, i))
}

// ColumnBytes implements bench.Columns.
func (r *row) ColumnBytes(i int, buf []byte) []byte { return r.appendText(buf[:0], i) }

// ColumnRaw implements bench.RawColumns: a string column's bytes as
// go-mysql parsed them, valid until the next row.
func (r *row) ColumnRaw(i int) []byte {
	if r.v[i].Type == mysql.FieldValueTypeString {
		return r.v[i].AsString()
	}
	r.scratch = r.appendText(r.scratch[:0], i)
	return r.scratch
}

// appendText appends column i as text: a number in its shortest form.
func (r *row) appendText(buf []byte, i int) []byte {
	f := &r.v[i]
	switch f.Type {
	case mysql.FieldValueTypeSigned:
		return strconv.AppendInt(buf, f.AsInt64(), 10)
	case mysql.FieldValueTypeUnsigned:
		return strconv.AppendUint(buf, f.AsUint64(), 10)
	case mysql.FieldValueTypeFloat:
		return strconv.AppendFloat(buf, f.AsFloat64(), 'g', -1, 64)
	case mysql.FieldValueTypeString:
		return append(buf, f.AsString()...)
	}
	return buf
}
