package native

import "github.com/sqlbench/sqlbench/bench"

// StepStmt is the statement API of crawshaw.io/sqlite, which its fork
// zombiezen.com/go/sqlite keeps method for method.
type StepStmt interface {
	Step() (bool, error)
	Reset() error
	ClearBindings() error
	Finalize() error
	ColumnCount() int
	ColumnInt64(col int) int64
	ColumnFloat(col int) float64
	ColumnText(col int) string
	ColumnLen(col int) int
	ColumnBytes(col int, buf []byte) int
	BindInt64(param int, v int64)
	BindFloat(param int, v float64)
	BindText(param int, v string)
	BindBytes(param int, v []byte)
	BindNull(param int)
}

// StepAdapter turns a StepStmt into a Stmt. IsNull reports whether a column
// of the current row is NULL: the one call whose types differ between the
// two libraries.
type StepAdapter[S StepStmt] struct {
	S      S
	IsNull func(s S, col int) bool
}

// Scan implements bench.Row.
func (a StepAdapter[S]) Scan(dest ...any) error { return bench.ScanColumns(a, dest...) }

// Bind implements Stmt.
func (a StepAdapter[S]) Bind(args []any) error { return BindArgs(a, args) }

// Step implements Stmt.
func (a StepAdapter[S]) Step() (bool, error) { return a.S.Step() }

// Finalize implements Stmt.
func (a StepAdapter[S]) Finalize() error { return a.S.Finalize() }

// Reset implements Stmt.
func (a StepAdapter[S]) Reset() error {
	if err := a.S.Reset(); err != nil {
		return err
	}
	return a.S.ClearBindings()
}

// ColumnCount implements bench.Columns.
func (a StepAdapter[S]) ColumnCount() int { return a.S.ColumnCount() }

// ColumnNull implements bench.Columns.
func (a StepAdapter[S]) ColumnNull(i int) bool { return a.IsNull(a.S, i) }

// ColumnInt64 implements bench.Columns.
func (a StepAdapter[S]) ColumnInt64(i int) int64 { return a.S.ColumnInt64(i) }

// ColumnFloat implements bench.Columns.
func (a StepAdapter[S]) ColumnFloat(i int) float64 { return a.S.ColumnFloat(i) }

// ColumnText implements bench.Columns.
func (a StepAdapter[S]) ColumnText(i int) string { return a.S.ColumnText(i) }

// ColumnBytes implements bench.Columns.
func (a StepAdapter[S]) ColumnBytes(i int, buf []byte) []byte {
	n := a.S.ColumnLen(i)
	buf = append(buf[:0], make([]byte, n)...)
	a.S.ColumnBytes(i, buf)
	return buf
}

// BindInt64 implements Binder.
func (a StepAdapter[S]) BindInt64(p int, v int64) error { a.S.BindInt64(p, v); return nil }

// BindFloat implements Binder.
func (a StepAdapter[S]) BindFloat(p int, v float64) error { a.S.BindFloat(p, v); return nil }

// BindText implements Binder.
func (a StepAdapter[S]) BindText(p int, v string) error { a.S.BindText(p, v); return nil }

// BindBytes implements Binder.
func (a StepAdapter[S]) BindBytes(p int, v []byte) error { a.S.BindBytes(p, v); return nil }

// BindNull implements Binder.
func (a StepAdapter[S]) BindNull(p int) error { a.S.BindNull(p); return nil }
