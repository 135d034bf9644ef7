package bench

import "io"

// RowSource streams the rows of a bulk load to a Copier, one at a time, so
// that no run ever holds more than one row.
type RowSource interface {
	// Next advances to the next row; it reports false when there is none.
	Next() bool
	// Values returns the current row, one value per column. The slice and
	// its values stay valid only until the next call to Next, and the
	// source may reuse them, so that producing a row allocates nothing.
	Values() []any
}

// Copier is implemented by the Conns of targets with CapCopy: PostgreSQL's
// COPY FROM STDIN through the driver's own bulk API.
type Copier interface {
	// CopyFrom copies every row of src into the columns cols of table and
	// returns how many rows the server stored.
	CopyFrom(table string, cols []string, src RowSource) (int64, error)
}

// Loader is implemented by the Conns of targets with CapLoad: MySQL's LOAD
// DATA LOCAL INFILE fed from a reader instead of a file.
type Loader interface {
	// Load streams r, rows of tab-separated fields each ended by a newline,
	// into the columns cols of table and returns how many rows the server
	// stored.
	Load(table string, cols []string, r io.Reader) (int64, error)
}
