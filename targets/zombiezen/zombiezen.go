// Package zombiezen registers the "zombiezen" target: the native API of
// zombiezen.com/go/sqlite, which runs on modernc's SQLite (no cgo).
package zombiezen

import (
	"context"

	"zombiezen.com/go/sqlite"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/native"
)

func init() {
	bench.RegisterOpener("zombiezen", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		c, err := sqlite.OpenConn(cfg.DSN, sqlite.OpenReadWrite, sqlite.OpenCreate, sqlite.OpenNoMutex)
		if err != nil {
			return nil, err
		}
		return native.NewConn(driver{c}), nil
	})
}

type driver struct{ c *sqlite.Conn }

// Compile uses PrepareTransient: Conn.Prepare would cache the statement.
func (d driver) Compile(query string) (native.Stmt, error) {
	s, _, err := d.c.PrepareTransient(query)
	if err != nil {
		return nil, err
	}
	return native.StepAdapter[*sqlite.Stmt]{S: s, IsNull: isNull}, nil
}

func (d driver) Close() error { return d.c.Close() }

func isNull(s *sqlite.Stmt, col int) bool { return s.ColumnType(col) == sqlite.TypeNull }
