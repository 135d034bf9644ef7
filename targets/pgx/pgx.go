// Package pgx registers two targets for github.com/jackc/pgx/v5: "pgx"
// through database/sql (pgx/v5/stdlib) and "pgx-native" through pgx.Conn,
// whose statements also go together (bench.Batcher): pgx.Batch with
// SendBatch, and pgconn's pipeline mode.
package pgx

import (
	"context"
	"errors"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
	"github.com/sqlbench/sqlbench/targets/pgdsn"
)

func init() {
	bench.RegisterOpener("pgx", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		c, err := config(cfg)
		if err != nil {
			return nil, err
		}
		return sqldb.Wrap(ctx, stdlib.OpenDB(*c), cfg)
	}, bench.CapPool, bench.CapContext)
	bench.RegisterOpener("pgx-native", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		c, err := config(cfg)
		if err != nil {
			return nil, err
		}
		conn, err := pgx.ConnectConfig(ctx, c)
		if err != nil {
			return nil, err
		}
		return &nativeConn{c: conn}, nil
	}, bench.CapCopy, bench.CapContext, bench.CapSendBatch, bench.CapPipeline)
}

func config(cfg bench.Config) (*pgx.ConnConfig, error) {
	dsn, err := pgdsn.ConnString(cfg.Server)
	if err != nil {
		return nil, err
	}
	return pgx.ParseConfig(dsn)
}

// bg is the context of every call: the harness bounds a run by its count and
// the orchestrator by killing the runner, so calls need no deadline (and a
// cancellable context would add work to every call).
var bg = context.Background()

// nativeConn is bench.Conn over one pgx.Conn.
type nativeConn struct {
	c     *pgx.Conn
	stmts int
}

func (n *nativeConn) Exec(query string, args ...any) error {
	_, err := n.c.Exec(bg, query, args...)
	return err
}

func (n *nativeConn) Query(query string, fn bench.RowFunc, args ...any) error {
	rows, err := n.c.Query(bg, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (n *nativeConn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	err := fn(n.c.QueryRow(bg, query, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return bench.ErrNoRows
	}
	return err
}

// QueryRowContext implements bench.ContextQuerier: pgx's QueryRow with the
// caller's context.
func (n *nativeConn) QueryRowContext(ctx context.Context, query string, fn bench.RowFunc, args ...any) error {
	err := fn(n.c.QueryRow(ctx, query, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return bench.ErrNoRows
	}
	return err
}

// Prepare prepares query under a name of its own; pgx runs a statement when
// Query or Exec are given its name.
func (n *nativeConn) Prepare(query string) (bench.Stmt, error) {
	n.stmts++
	name := "sqlbench_" + strconv.Itoa(n.stmts)
	if _, err := n.c.Prepare(bg, name, query); err != nil {
		return nil, err
	}
	return nativeStmt{n: n, name: name}, nil
}

func (n *nativeConn) Close() error { return n.c.Close(bg) }

type nativeStmt struct {
	n    *nativeConn
	name string
}

func (s nativeStmt) Exec(args ...any) error                    { return s.n.Exec(s.name, args...) }
func (s nativeStmt) Query(fn bench.RowFunc, args ...any) error { return s.n.Query(s.name, fn, args...) }
func (s nativeStmt) QueryRow(fn bench.RowFunc, args ...any) error {
	return s.n.QueryRow(s.name, fn, args...)
}
func (s nativeStmt) Close() error { return s.n.c.Deallocate(bg, s.name) }
