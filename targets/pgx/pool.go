package pgx

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/pgdsn"
)

func init() {
	bench.RegisterOpener("pgxpool", openPool, bench.CapPool)
}

// openPool opens the "pgxpool" target: pgx's own pool (pgxpool.Pool) of at
// most cfg.Pool connections (MaxConns; 1 when cfg.Pool asks for none),
// each running cfg.Session when it connects (AfterConnect), as an
// application configures pgxpool. The pool opens its connections when
// they are first acquired.
func openPool(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
	dsn, err := pgdsn.ConnString(cfg.Server)
	if err != nil {
		return nil, err
	}
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pgxpool config: %w", err)
	}
	pc.MaxConns = int32(max(1, cfg.Pool))
	if session := cfg.Session; len(session) > 0 {
		pc.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
			for _, q := range session {
				if _, err := c.Exec(ctx, q); err != nil {
					return fmt.Errorf("session setting %q: %w", q, err)
				}
			}
			return nil
		}
	}
	p, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("pgxpool: %w", err)
	}
	if err := p.Ping(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("connect: %w", err)
	}
	return &poolConn{p: p}, nil
}

// poolConn is bench.Conn over a pgxpool.Pool: every call is the pool's own
// (Pool.Exec, Pool.Query, Pool.QueryRow), which acquires a connection,
// runs the statement through pgx's statement cache on it and releases it.
// It has no prepared statements: a pgx statement belongs to one
// connection, and a pool user relies on the per-connection cache instead.
type poolConn struct{ p *pgxpool.Pool }

func (c *poolConn) Exec(query string, args ...any) error {
	_, err := c.p.Exec(bg, query, args...)
	return err
}

func (c *poolConn) Query(query string, fn bench.RowFunc, args ...any) error {
	rows, err := c.p.Query(bg, query, args...)
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

func (c *poolConn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	err := fn(c.p.QueryRow(bg, query, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return bench.ErrNoRows
	}
	return err
}

// Prepare refuses: see poolConn.
func (c *poolConn) Prepare(string) (bench.Stmt, error) {
	return nil, errors.New("pgxpool has no statement prepared across its connections (pgx caches them per connection)")
}

func (c *poolConn) Close() error {
	c.p.Close()
	return nil
}

// PoolWaits implements bench.PoolWaiter from the pool's Stat: the acquires
// that found no idle connection and waited for one to be released or
// opened (EmptyAcquireCount), and the time they waited
// (EmptyAcquireWaitTime). pgxpool releases before that method (a version
// target may build against one) give only the time of every acquire,
// AcquireDuration, waiting or not: an upper bound of the wait.
func (c *poolConn) PoolWaits() (int64, time.Duration) {
	s := c.p.Stat()
	if w, ok := any(s).(interface{ EmptyAcquireWaitTime() time.Duration }); ok {
		return s.EmptyAcquireCount(), w.EmptyAcquireWaitTime()
	}
	return s.EmptyAcquireCount(), s.AcquireDuration()
}
