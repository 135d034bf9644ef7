package workloads

import (
	"io"

	"github.com/sqlbench/sqlbench/bench"
)

// blockRows is a bench.RowSource of rows [first, first+n) of a run's
// pre-generated input.
type blockRows struct {
	in        *bulkBlock
	next, end int
	cur       []any
}

// reset makes b produce rows [first, first+n).
func (b *blockRows) reset(first, n int) { b.next, b.end = first, first+n }

// Next implements bench.RowSource.
func (b *blockRows) Next() bool {
	if b.next >= b.end {
		return false
	}
	b.cur = b.in.row(b.next)
	b.next++
	return true
}

// Values implements bench.RowSource.
func (b *blockRows) Values() []any { return b.cur }

// tsvReader is an io.Reader of generated rows [first, first+n) as
// tab-separated text, one row per line: the input of LOAD DATA's default
// format. Generated values are letters and digits, so no value needs
// escaping (no tab, newline or backslash can occur). Rows are written
// straight into the caller's buffer; only a row that straddles two reads
// goes through a one-row buffer of the reader's own.
type tsvReader struct {
	next, end int
	gen       bench.RowGen
	vals      []string // the values of the row being formatted
	row       []byte   // one formatted row, for a row split across reads
	pending   []byte   // the unread rest of row
}

// newTSVReader returns a reader of rows of cols columns of width bytes;
// reset sets the range it produces.
func newTSVReader(cols, width int) *tsvReader {
	return &tsvReader{gen: bench.NewRowGen(cols, width), vals: make([]string, cols), row: make([]byte, cols*(width+1))}
}

// reset makes r produce rows [first, first+n) from the start.
func (r *tsvReader) reset(first, n int) {
	r.next, r.end, r.pending = first, first+n, nil
}

// put formats row into b, which has room for it, and returns its length.
func (r *tsvReader) put(b []byte, row int) int {
	r.gen.Row(r.vals, row)
	k := 0
	for _, v := range r.vals {
		k += copy(b[k:], v)
		b[k] = '\t'
		k++
	}
	b[k-1] = '\n'
	return k
}

// Read implements io.Reader.
func (r *tsvReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) { // every pass fills at least one byte of p or returns
		switch {
		case len(r.pending) > 0:
			k := copy(p[n:], r.pending)
			r.pending = r.pending[k:]
			n += k
		case r.next >= r.end:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		case len(p)-n >= len(r.row):
			n += r.put(p[n:], r.next)
			r.next++
		default:
			r.put(r.row, r.next)
			r.next++
			r.pending = r.row
		}
	}
	return n, nil
}
