package bench

import "unsafe"

// ArgRows is a block of generated rows held as driver arguments, for bulk
// loops that generate their input before the clock starts, as the published
// programs do (a [][]any of the whole input), but a block at a time so that
// memory stays bounded: ten million rows of 16 × 32 bytes would not fit.
//
// Each argument is an interface built once, pointing at a slot of its own
// (see TextArgs), so filling a block allocates nothing. An argument is a
// string, or with Bytes a []byte: what the application hands the driver
// changes what some drivers send (lib/pq's COPY encodes a []byte as bytea
// hex). A []byte argument is a read-only view of the generator's text, which
// is valid because drivers do not write to their arguments (database/sql
// requires as much).
type ArgRows struct {
	cols, rows int
	bytes      bool
	first, n   int // the rows held: [first, first+n)
	strs       []string
	byts       [][]byte
	args       []any
	vals       []string // one row's values, from the generator
}

// NewArgRows returns a block of rows rows of cols arguments each, strings,
// or []byte when bytes.
func NewArgRows(rows, cols int, bytes bool) *ArgRows {
	a := &ArgRows{cols: cols, rows: rows, bytes: bytes, args: make([]any, rows*cols), vals: make([]string, cols)}
	if bytes {
		a.byts = make([][]byte, rows*cols)
		for i := range a.args {
			var v any = []byte(nil)
			(*eface)(unsafe.Pointer(&v)).data = unsafe.Pointer(&a.byts[i])
			a.args[i] = v
		}
		return a
	}
	a.strs = make([]string, rows*cols)
	for i := range a.args {
		var v any = ""
		(*eface)(unsafe.Pointer(&v)).data = unsafe.Pointer(&a.strs[i])
		a.args[i] = v
	}
	return a
}

// Rows returns how many rows the block holds at most.
func (a *ArgRows) Rows() int { return a.rows }

// Fill generates rows [first, first+n) of g into the block (n at most
// Rows()).
func (a *ArgRows) Fill(first, n int, g *RowGen) {
	n = min(n, a.rows)
	a.first, a.n = first, n
	for r := range n {
		at := r * a.cols
		if !a.bytes {
			g.Row(a.strs[at:at+a.cols], first+r)
			continue
		}
		g.Row(a.vals, first+r)
		for c, v := range a.vals {
			a.byts[at+c] = unsafe.Slice(unsafe.StringData(v), len(v))
		}
	}
}

// Holds reports whether the block holds row row.
func (a *ArgRows) Holds(row int) bool { return row >= a.first && row < a.first+a.n }

// Row returns the arguments of row row, which the block holds; they stay
// valid until the next Fill.
func (a *ArgRows) Row(row int) []any {
	at := (row - a.first) * a.cols
	return a.args[at : at+a.cols]
}
