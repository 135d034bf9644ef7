// Package modernc registers the "modernc" target: modernc.org/sqlite through
// database/sql, SQLite's C source translated to Go (no cgo).
package modernc

import (
	"context"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
)

func init() {
	bench.RegisterOpener("modernc", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		return sqldb.Open(ctx, "sqlite", "file:"+cfg.DSN, cfg)
	}, bench.CapPool)
}
