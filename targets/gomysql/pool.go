package gomysql

import (
	"context"
	"errors"
	"fmt"

	"github.com/sqlbench/sqlbench/bench"
)

// pool is bench.Conn over a fixed set of go-mysql connections that several
// goroutines use at once, as database/sql shares a *sql.DB: each call takes
// an idle connection, runs on it and gives it back. go-mysql's own
// client.Pool grows and shrinks in the background and pings idle
// connections, which would put work into the timed loop that the
// database/sql targets' pools (held at their size) do not do.
type pool struct {
	idle  chan *conn
	conns []*conn
}

// openPool opens n connections with open and runs the session statements
// on each.
func openPool(ctx context.Context, n int, session []string, open func(context.Context) (*conn, error)) (*pool, error) {
	p := &pool{idle: make(chan *conn, n)}
	for range n {
		c, err := open(ctx)
		if err != nil {
			return nil, errors.Join(err, p.Close())
		}
		p.conns = append(p.conns, c)
		for _, q := range session {
			if err := c.Exec(q); err != nil {
				return nil, errors.Join(fmt.Errorf("session setting %q: %w", q, err), p.Close())
			}
		}
		p.idle <- c
	}
	return p, nil
}

// with runs f on an idle connection.
func (p *pool) with(f func(c *conn) error) error {
	c := <-p.idle
	defer func() { p.idle <- c }()
	return f(c)
}

func (p *pool) Exec(query string, args ...any) error {
	return p.with(func(c *conn) error { return c.Exec(query, args...) })
}

func (p *pool) Query(query string, fn bench.RowFunc, args ...any) error {
	return p.with(func(c *conn) error { return c.Query(query, fn, args...) })
}

func (p *pool) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	return p.with(func(c *conn) error { return c.QueryRow(query, fn, args...) })
}

// Prepare prepares query on every connection of the pool, so that a use
// runs on whichever connection is idle.
func (p *pool) Prepare(query string) (bench.Stmt, error) {
	s := &poolStmt{p: p, stmts: make(map[*conn]bench.Stmt, len(p.conns))}
	for _, c := range p.conns {
		cs, err := c.Prepare(query)
		if err != nil {
			return nil, errors.Join(err, s.Close())
		}
		s.stmts[c] = cs
	}
	return s, nil
}

func (p *pool) Close() error {
	var errs []error
	for _, c := range p.conns {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// poolStmt is a statement prepared on every connection of a pool. Its map
// is written only by Prepare, before any use.
type poolStmt struct {
	p     *pool
	stmts map[*conn]bench.Stmt
}

func (s *poolStmt) Exec(args ...any) error {
	return s.p.with(func(c *conn) error { return s.stmts[c].Exec(args...) })
}

func (s *poolStmt) Query(fn bench.RowFunc, args ...any) error {
	return s.p.with(func(c *conn) error { return s.stmts[c].Query(fn, args...) })
}

func (s *poolStmt) QueryRow(fn bench.RowFunc, args ...any) error {
	return s.p.with(func(c *conn) error { return s.stmts[c].QueryRow(fn, args...) })
}

func (s *poolStmt) Close() error {
	var errs []error
	for _, cs := range s.stmts {
		errs = append(errs, cs.Close())
	}
	return errors.Join(errs...)
}
