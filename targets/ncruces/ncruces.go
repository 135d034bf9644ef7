// Package ncruces registers two targets for github.com/ncruces/go-sqlite3
// (SQLite compiled to Wasm and translated to Go, no cgo): "ncruces" through
// database/sql and "ncruces-native" through the library's own Conn and Stmt.
package ncruces

import (
	"context"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/driver" // registers the "sqlite3" database/sql driver

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/native"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
)

func init() {
	bench.RegisterOpener("ncruces", sqldb.FileOpener("sqlite3"), bench.CapPool)
	bench.RegisterOpener("ncruces-native", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		c, err := sqlite3.Open(cfg.DSN)
		if err != nil {
			return nil, err
		}
		return native.NewConn(driver{c}), nil
	})
}

type driver struct{ c *sqlite3.Conn }

func (d driver) Compile(query string) (native.Stmt, error) {
	s, _, err := d.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	return stmt{s}, nil
}

func (d driver) Close() error { return d.c.Close() }

type stmt struct{ s *sqlite3.Stmt }

func (s stmt) Scan(dest ...any) error    { return bench.ScanColumns(s, dest...) }
func (s stmt) Bind(args []any) error     { return native.BindArgs(s, args) }
func (s stmt) Finalize() error           { return s.s.Close() }
func (s stmt) ColumnCount() int          { return s.s.ColumnCount() }
func (s stmt) ColumnNull(i int) bool     { return s.s.ColumnType(i) == sqlite3.NULL }
func (s stmt) ColumnInt64(i int) int64   { return s.s.ColumnInt64(i) }
func (s stmt) ColumnFloat(i int) float64 { return s.s.ColumnFloat(i) }
func (s stmt) ColumnText(i int) string   { return s.s.ColumnText(i) }

func (s stmt) ColumnBytes(i int, buf []byte) []byte { return s.s.ColumnBlob(i, buf[:0]) }

// ColumnRaw implements bench.RawColumns: the library's view of SQLite's own
// buffer, valid until the next step.
func (s stmt) ColumnRaw(i int) []byte { return s.s.ColumnRawBlob(i) }

func (s stmt) Step() (bool, error) {
	if s.s.Step() {
		return true, nil
	}
	return false, s.s.Err()
}

func (s stmt) Reset() error         { return s.s.Reset() }
func (s stmt) ClearBindings() error { return s.s.ClearBindings() }

func (s stmt) BindInt64(p int, v int64) error   { return s.s.BindInt64(p, v) }
func (s stmt) BindFloat(p int, v float64) error { return s.s.BindFloat(p, v) }
func (s stmt) BindText(p int, v string) error   { return s.s.BindText(p, v) }
func (s stmt) BindBytes(p int, v []byte) error  { return s.s.BindBlob(p, v) }
func (s stmt) BindNull(p int) error             { return s.s.BindNull(p) }
