// Package crawshaw registers the "crawshaw" target: the native API of
// crawshaw.io/sqlite (cgo).
package crawshaw

import (
	"context"

	"crawshaw.io/sqlite"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/native"
)

func init() {
	bench.RegisterOpener("crawshaw", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		c, err := sqlite.OpenConn(cfg.DSN, sqlite.SQLITE_OPEN_READWRITE|sqlite.SQLITE_OPEN_CREATE|sqlite.SQLITE_OPEN_NOMUTEX)
		if err != nil {
			return nil, err
		}
		return native.NewConn(driver{c}), nil
	})
}

type driver struct{ c *sqlite.Conn }

func (d driver) Compile(query string) (native.Stmt, error) {
	s, _, err := d.c.PrepareTransient(query)
	if err != nil {
		return nil, err
	}
	return stmt{s}, nil
}

func (d driver) Close() error { return d.c.Close() }

type stmt struct{ s *sqlite.Stmt }

func (s stmt) Scan(dest ...any) error  { return bench.ScanColumns(s, dest...) }
func (s stmt) Bind(args []any) error   { return native.BindArgs(s, args) }
func (s stmt) Step() (bool, error)     { return s.s.Step() }
func (s stmt) Finalize() error         { return s.s.Finalize() }
func (s stmt) ColumnCount() int        { return s.s.ColumnCount() }
func (s stmt) ColumnNull(i int) bool   { return s.s.ColumnType(i) == sqlite.SQLITE_NULL }
func (s stmt) ColumnInt64(i int) int64 { return s.s.ColumnInt64(i) }
func (s stmt) ColumnText(i int) string { return s.s.ColumnText(i) }

func (s stmt) ColumnFloat(i int) float64 { return s.s.ColumnFloat(i) }

func (s stmt) ColumnBytes(i int, buf []byte) []byte {
	n := s.s.ColumnLen(i)
	buf = append(buf[:0], make([]byte, n)...)
	s.s.ColumnBytes(i, buf)
	return buf
}

func (s stmt) Reset() error {
	if err := s.s.Reset(); err != nil {
		return err
	}
	return s.s.ClearBindings()
}

func (s stmt) BindInt64(p int, v int64) error   { s.s.BindInt64(p, v); return nil }
func (s stmt) BindFloat(p int, v float64) error { s.s.BindFloat(p, v); return nil }
func (s stmt) BindText(p int, v string) error   { s.s.BindText(p, v); return nil }
func (s stmt) BindBytes(p int, v []byte) error  { s.s.BindBytes(p, v); return nil }
func (s stmt) BindNull(p int) error             { s.s.BindNull(p); return nil }
