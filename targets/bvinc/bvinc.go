// Package bvinc registers the "bvinc" target: the native API of
// github.com/bvinc/go-sqlite-lite (cgo, SQLite's C source bundled), the
// library eatonphil/gosqlite forked; its last release, v0.6.1, is of 2019.
package bvinc

import (
	"context"
	"errors"
	"fmt"

	"github.com/bvinc/go-sqlite-lite/sqlite3"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/native"
)

func init() {
	bench.RegisterOpener("bvinc", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		c, err := sqlite3.Open(cfg.DSN, sqlite3.OPEN_READWRITE|sqlite3.OPEN_CREATE|sqlite3.OPEN_NOMUTEX)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", cfg.DSN, err)
		}
		return native.NewConn(driver{c}), nil
	})
}

type driver struct{ c *sqlite3.Conn }

// Compile compiles query with Conn.Prepare, which caches nothing: the
// statement is the caller's until it is closed.
func (d driver) Compile(query string) (native.Stmt, error) {
	s, err := d.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("no statement in the SQL text")
	}
	return native.NewLiteAdapter[*sqlite3.Stmt, sqlite3.RawBytes](s, s.Tail)
}

func (d driver) Close() error { return d.c.Close() }
