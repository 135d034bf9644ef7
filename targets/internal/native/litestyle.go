package native

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// LiteStmt is the statement API of bvinc/go-sqlite-lite, which its fork
// eatonphil/gosqlite keeps method for method: arguments are bound in one
// variadic call, and the column getters report NULL and errors instead of
// converting silently. R is the library's RawBytes type.
type LiteStmt[R ~[]byte] interface {
	Bind(args ...any) error
	Step() (bool, error)
	Reset() error
	ClearBindings() error
	Close() error
	ColumnCount() int
	ColumnType(col int) byte
	ColumnInt64(col int) (int64, bool, error)
	ColumnDouble(col int) (float64, bool, error)
	ColumnText(col int) (string, bool, error)
	ColumnRawBytes(col int) (R, error)
}

// liteNull is SQLITE_NULL, the column type both libraries report for NULL
// (they return SQLite's own type codes).
const liteNull = 5

// LiteAdapter turns a LiteStmt into a Stmt. Its column getters cannot
// return errors through bench.Columns, so the first error one of them meets
// is kept and returned by the Scan in progress.
type LiteAdapter[S LiteStmt[R], R ~[]byte] struct {
	s   S
	err error
}

// NewLiteAdapter returns the Stmt of s. tail is the SQL text the library
// left uncompiled after the first statement: sqlbench sends one statement
// per call, so anything but blanks there is an error rather than a
// statement silently not run.
func NewLiteAdapter[S LiteStmt[R], R ~[]byte](s S, tail string) (*LiteAdapter[S, R], error) {
	if strings.TrimSpace(tail) != "" {
		err := s.Close()
		return nil, errors.Join(fmt.Errorf("more than one statement in the SQL text: %q left over", tail), err)
	}
	return &LiteAdapter[S, R]{s: s}, nil
}

// Scan implements bench.Row.
func (a *LiteAdapter[S, R]) Scan(dest ...any) error {
	a.err = nil
	if err := bench.ScanColumns(a, dest...); err != nil {
		return err
	}
	return a.err
}

// Bind implements Stmt through the library's own Bind.
func (a *LiteAdapter[S, R]) Bind(args []any) error { return a.s.Bind(args...) }

// Step implements Stmt.
func (a *LiteAdapter[S, R]) Step() (bool, error) { return a.s.Step() }

// Finalize implements Stmt.
func (a *LiteAdapter[S, R]) Finalize() error { return a.s.Close() }

// Reset implements Stmt (the bindings stay, as for the other native
// targets; the next use binds its own).
func (a *LiteAdapter[S, R]) Reset() error { return a.s.Reset() }

// ClearBindings implements Stmt.
func (a *LiteAdapter[S, R]) ClearBindings() error { return a.s.ClearBindings() }

// keep records the first error of a column getter.
func (a *LiteAdapter[S, R]) keep(col int, err error) {
	if err != nil && a.err == nil {
		a.err = fmt.Errorf("column %d: %w", col, err)
	}
}

// ColumnCount implements bench.Columns.
func (a *LiteAdapter[S, R]) ColumnCount() int { return a.s.ColumnCount() }

// ColumnNull implements bench.Columns.
func (a *LiteAdapter[S, R]) ColumnNull(i int) bool { return a.s.ColumnType(i) == liteNull }

// ColumnInt64 implements bench.Columns.
func (a *LiteAdapter[S, R]) ColumnInt64(i int) int64 {
	v, _, err := a.s.ColumnInt64(i)
	a.keep(i, err)
	return v
}

// ColumnFloat implements bench.Columns.
func (a *LiteAdapter[S, R]) ColumnFloat(i int) float64 {
	v, _, err := a.s.ColumnDouble(i)
	a.keep(i, err)
	return v
}

// ColumnText implements bench.Columns.
func (a *LiteAdapter[S, R]) ColumnText(i int) string {
	v, _, err := a.s.ColumnText(i)
	a.keep(i, err)
	return v
}

// ColumnBytes implements bench.Columns: the column's bytes, read in place
// (ColumnRawBytes), copied into buf.
func (a *LiteAdapter[S, R]) ColumnBytes(i int, buf []byte) []byte {
	return append(buf[:0], a.ColumnRaw(i)...)
}

// ColumnRaw implements bench.RawColumns: ColumnRawBytes, SQLite's own
// memory, valid until the statement steps again.
func (a *LiteAdapter[S, R]) ColumnRaw(i int) []byte {
	v, err := a.s.ColumnRawBytes(i)
	a.keep(i, err)
	return []byte(v)
}

// LiteConn is the connection API of go-sqlite-lite and gosqlite.
type LiteConn[S any] interface {
	Prepare(sql string, args ...any) (S, error)
	Close() error
}

// RegisterLite registers target name over a go-sqlite-lite style library:
// open opens a connection on the target's DSN, and tail returns the SQL a
// statement's Prepare left uncompiled (the libraries' Stmt.Tail). Simple
// calls compile with Prepare (which caches nothing) and close the
// statement after use; prepared statements are compiled once and reset per
// use (see the package comment).
func RegisterLite[C LiteConn[S], S LiteStmt[R], R ~[]byte](name string, open func(dsn string) (C, error),
	tail func(S) string) {
	bench.RegisterOpener(name, func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		c, err := open(cfg.DSN)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", cfg.DSN, err)
		}
		return NewConn(liteDriver[C, S, R]{c: c, tail: tail}), nil
	})
}

type liteDriver[C LiteConn[S], S LiteStmt[R], R ~[]byte] struct {
	c    C
	tail func(S) string
}

func (d liteDriver[C, S, R]) Compile(query string) (Stmt, error) {
	s, err := d.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	var none S
	if any(s) == any(none) { // the libraries return a nil Stmt for SQL that holds none
		return nil, errors.New("no statement in the SQL text")
	}
	return NewLiteAdapter[S, R](s, d.tail(s))
}

func (d liteDriver[C, S, R]) Close() error { return d.c.Close() }
