// Package eatonphil registers the "eatonphil" target: the native API of
// github.com/eatonphil/gosqlite (cgo, SQLite's C source bundled), the
// maintained fork of bvinc/go-sqlite-lite.
package eatonphil

import (
	"context"
	"errors"
	"fmt"

	"github.com/eatonphil/gosqlite"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/native"
)

func init() {
	bench.RegisterOpener("eatonphil", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		c, err := gosqlite.Open(cfg.DSN, gosqlite.OPEN_READWRITE|gosqlite.OPEN_CREATE|gosqlite.OPEN_NOMUTEX)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", cfg.DSN, err)
		}
		return native.NewConn(driver{c}), nil
	})
}

type driver struct{ c *gosqlite.Conn }

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
	return native.NewLiteAdapter[*gosqlite.Stmt, gosqlite.RawBytes](s, s.Tail)
}

func (d driver) Close() error { return d.c.Close() }
