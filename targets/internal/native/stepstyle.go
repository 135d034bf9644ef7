package native

import (
	"context"

	"github.com/sqlbench/sqlbench/bench"
)

// StepConn is the connection API of crawshaw.io/sqlite, which its fork
// zombiezen.com/go/sqlite keeps method for method; S is the library's
// statement type.
type StepConn[S any] interface {
	// PrepareTransient compiles query into a statement that the connection
	// does not cache (Prepare would cache it).
	PrepareTransient(query string) (stmt S, trailingBytes int, err error)
	// Prepare returns the connection's cached statement for query,
	// compiling it on first use, reset and with its bindings cleared.
	Prepare(query string) (S, error)
	Close() error
}

// StepStmt is the statement API of crawshaw.io/sqlite and
// zombiezen.com/go/sqlite; T is the library's column type, the one type the
// two spell differently.
type StepStmt[T comparable] interface {
	Step() (bool, error)
	Reset() error
	ClearBindings() error
	Finalize() error
	ColumnCount() int
	ColumnType(col int) T
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

// RegisterStep registers target name over a step-style library: open opens
// a connection on the target's DSN (one taken from a pool per published
// adapter call or per test where it is a Pool), and null is the library's
// column type of NULL. Simple calls compile with PrepareTransient and step; prepared
// statements are compiled once and reset per use (see the package comment);
// bench.QueryCached goes through the library's own statement cache
// (Prepare).
func RegisterStep[C StepConn[S], S StepStmt[T], T comparable](name string, open func(dsn string) (C, error), null T) {
	bench.RegisterOpener(name, func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		c, err := open(cfg.DSN)
		if err != nil {
			return nil, err
		}
		d := stepDriver[C, S, T]{c: c, null: null, cached: map[string]*stepStmt[S, T]{}}
		if p, ok := any(c).(Pool); ok {
			return NewPooledConn(d, p), nil
		}
		return NewConn(d), nil
	})
}

type stepDriver[C StepConn[S], S StepStmt[T], T comparable] struct {
	c    C
	null T
	// cached holds the adapter of each statement the library caches, by
	// its SQL text, so that a cached statement costs no allocation here.
	cached map[string]*stepStmt[S, T]
}

// Cached implements Cacher with the library's Prepare.
func (d stepDriver[C, S, T]) Cached(query string) (Stmt, error) {
	s, err := d.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	if a, ok := d.cached[query]; ok {
		a.s = s // the library's own statement, whether or not it changed
		return a, nil
	}
	a := &stepStmt[S, T]{s: s, null: d.null}
	d.cached[query] = a
	return a, nil
}

func (d stepDriver[C, S, T]) Compile(query string) (Stmt, error) {
	s, _, err := d.c.PrepareTransient(query)
	if err != nil {
		return nil, err
	}
	return &stepStmt[S, T]{s: s, null: d.null}, nil
}

func (d stepDriver[C, S, T]) Close() error { return d.c.Close() }

// stepStmt turns a StepStmt into a Stmt. It is used through a pointer: a
// Scan hands it to bench.ScanColumns as an interface, and a struct of two
// words put in an interface is copied to the heap, one allocation per row
// that the published programs, calling the library's statement directly,
// do not make.
type stepStmt[S StepStmt[T], T comparable] struct {
	s    S
	null T
}

func (a *stepStmt[S, T]) Scan(dest ...any) error { return bench.ScanColumns(a, dest...) }
func (a *stepStmt[S, T]) Bind(args []any) error  { return BindArgs(a, args) }
func (a *stepStmt[S, T]) Step() (bool, error)    { return a.s.Step() }
func (a *stepStmt[S, T]) Reset() error           { return a.s.Reset() }
func (a *stepStmt[S, T]) ClearBindings() error   { return a.s.ClearBindings() }
func (a *stepStmt[S, T]) Finalize() error        { return a.s.Finalize() }

func (a *stepStmt[S, T]) ColumnCount() int          { return a.s.ColumnCount() }
func (a *stepStmt[S, T]) ColumnNull(i int) bool     { return a.s.ColumnType(i) == a.null }
func (a *stepStmt[S, T]) ColumnInt64(i int) int64   { return a.s.ColumnInt64(i) }
func (a *stepStmt[S, T]) ColumnFloat(i int) float64 { return a.s.ColumnFloat(i) }
func (a *stepStmt[S, T]) ColumnText(i int) string   { return a.s.ColumnText(i) }

func (a *stepStmt[S, T]) ColumnBytes(i int, buf []byte) []byte {
	n := a.s.ColumnLen(i)
	buf = append(buf[:0], make([]byte, n)...)
	a.s.ColumnBytes(i, buf)
	return buf
}

// The libraries' bind calls report no error: a bad bind surfaces at Step.

func (a *stepStmt[S, T]) BindInt64(p int, v int64) error   { a.s.BindInt64(p, v); return nil }
func (a *stepStmt[S, T]) BindFloat(p int, v float64) error { a.s.BindFloat(p, v); return nil }
func (a *stepStmt[S, T]) BindText(p int, v string) error   { a.s.BindText(p, v); return nil }
func (a *stepStmt[S, T]) BindBytes(p int, v []byte) error  { a.s.BindBytes(p, v); return nil }
func (a *stepStmt[S, T]) BindNull(p int) error             { a.s.BindNull(p); return nil }
