// Package gomysql registers the "go-mysql" target: the client package of
// github.com/go-mysql-org/go-mysql, a native MySQL/MariaDB API (no
// database/sql).
//
// Simple calls go through conn.Execute with the arguments written into the
// SQL text as literals (the text protocol, COM_QUERY); go-mysql's own
// Execute with arguments would prepare, execute and close a server-side
// statement per call. Prepared statements are conn.Prepare once and
// stmt.Execute per use (the binary protocol). Queries stream their rows
// (ExecuteSelectStreaming), one row held at a time; the one-row call reads
// its result whole with Execute. With Config.Pool above 1 the target is a
// fixed pool of such connections (pool.go).
package gomysql

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/go-mysql-org/go-mysql/client"
	"github.com/go-mysql-org/go-mysql/mysql"

	"github.com/sqlbench/sqlbench/bench"
)

// dialTimeout bounds connecting to the server.
const dialTimeout = 10 * time.Second

func init() {
	bench.RegisterOpener("go-mysql", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		open := func(ctx context.Context) (*conn, error) { return connect(ctx, cfg.Server) }
		if cfg.Pool > 1 {
			return openPool(ctx, cfg.Pool, cfg.Session, open)
		}
		return open(ctx)
	}, bench.CapPool)
}

// connect opens one connection to e.
func connect(ctx context.Context, e bench.Endpoint) (*conn, error) {
	d := &net.Dialer{Timeout: dialTimeout}
	tc, err := e.TLSConfig()
	if err != nil {
		return nil, err
	}
	var opts []client.Option
	if tc != nil {
		opts = append(opts, func(c *client.Conn) error { c.SetTLSConfig(tc); return nil })
	}
	c, err := client.ConnectWithDialer(ctx, e.Net, e.Addr, e.User, e.Password, e.Database, d.DialContext, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect over %s: %w", e.Net, err)
	}
	return newConn(c), nil
}

// conn is bench.Conn over one go-mysql connection. It is used by one
// goroutine at a time, so it keeps one query buffer, one streaming result
// and one row for all its calls.
type conn struct {
	c      *client.Conn
	buf    []byte       // the interpolated query text
	stream mysql.Result // reused by ExecuteSelectStreaming
	onRow  client.SelectPerRowCallback
	fn     bench.RowFunc // the RowFunc of the query streaming now
	fnErr  error         // the first error fn returned
	row    row
}

func newConn(c *client.Conn) *conn {
	n := &conn{c: c}
	n.onRow = n.streamRow
	return n
}

// text returns query with args written in as literals.
func (n *conn) text(query string, args []any) (string, error) {
	if len(args) == 0 {
		return query, nil
	}
	var err error
	if n.buf, err = appendQuery(n.buf[:0], query, args); err != nil {
		return "", err
	}
	return string(n.buf), nil
}

// streamRow hands one streamed row to the query's RowFunc. After fn has
// failed, the remaining rows are read and dropped rather than left on the
// connection (returning an error here would leave them unread).
func (n *conn) streamRow(values []mysql.FieldValue) error {
	if n.fnErr != nil {
		return nil
	}
	n.row.v = values
	n.fnErr = n.fn(&n.row)
	return nil
}

// streamed runs start, which streams rows into n.onRow, and returns its
// error or the first error of fn.
func (n *conn) streamed(fn bench.RowFunc, start func() error) error {
	n.fn, n.fnErr = fn, nil
	err := start()
	if err == nil {
		err = n.fnErr
	}
	n.fn, n.fnErr = nil, nil
	return err
}

func (n *conn) Exec(query string, args ...any) error {
	q, err := n.text(query, args)
	if err != nil {
		return err
	}
	r, err := n.c.Execute(q)
	release(r)
	return err
}

func (n *conn) Query(query string, fn bench.RowFunc, args ...any) error {
	q, err := n.text(query, args)
	if err != nil {
		return err
	}
	return n.streamed(fn, func() error { return n.c.ExecuteSelectStreaming(q, &n.stream, n.onRow, nil) })
}

func (n *conn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	q, err := n.text(query, args)
	if err != nil {
		return err
	}
	r, err := n.c.Execute(q)
	return n.first(r, err, fn)
}

// first calls fn with the first row of r, the result of a one-row call,
// and releases r.
func (n *conn) first(r *mysql.Result, err error, fn bench.RowFunc) error {
	defer release(r)
	if err != nil {
		return err
	}
	if r.Resultset == nil || len(r.Values) == 0 {
		return bench.ErrNoRows
	}
	n.row.v = r.Values[0]
	return fn(&n.row)
}

func (n *conn) Prepare(query string) (bench.Stmt, error) {
	s, err := n.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	return &stmt{n: n, s: s}, nil
}

func (n *conn) Close() error { return n.c.Close() }

// release returns r's result set to go-mysql's pool.
func release(r *mysql.Result) {
	if r != nil {
		r.Close()
	}
}

// stmt is a server-side prepared statement of a conn.
type stmt struct {
	n *conn
	s *client.Stmt
}

func (p *stmt) Exec(args ...any) error {
	r, err := p.s.Execute(args...)
	release(r)
	return err
}

func (p *stmt) Query(fn bench.RowFunc, args ...any) error {
	return p.n.streamed(fn, func() error { return p.s.ExecuteSelectStreaming(&p.n.stream, p.n.onRow, nil, args...) })
}

func (p *stmt) QueryRow(fn bench.RowFunc, args ...any) error {
	r, err := p.s.Execute(args...)
	return p.n.first(r, err, fn)
}

func (p *stmt) Close() error { return p.s.Close() }
