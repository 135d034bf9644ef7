// Package pq registers the "pq" target: github.com/lib/pq through
// database/sql, with COPY FROM STDIN through pq's CopyIn protocol.
package pq

import (
	"context"

	_ "github.com/lib/pq" // registers the "postgres" database/sql driver

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
	"github.com/sqlbench/sqlbench/targets/pgdsn"
)

func init() {
	bench.RegisterOpener("pq", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		return open(ctx, cfg, "postgres")
	}, bench.CapPool, bench.CapCopy, bench.CapContext)
}

// open opens the target through the database/sql driver registered as
// driverName: lib/pq's "postgres" (a test wraps it to see what pq is given).
func open(ctx context.Context, cfg bench.Config, driverName string) (bench.Conn, error) {
	dsn, err := pgdsn.ConnString(cfg.Server)
	if err != nil {
		return nil, err
	}
	c, err := sqldb.Open(ctx, driverName, dsn, cfg)
	if err != nil {
		return nil, err
	}
	return conn{c.(sqldb.Conn)}, nil
}
