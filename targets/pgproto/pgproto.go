// Package pgproto registers the "pgproto" target: PostgreSQL's protocol
// floor, a minimal client of the frontend/backend protocol written on
// pgx's protocol layer (github.com/jackc/pgx/v5/pgproto3) and nothing
// above it, so that a driver's cost above the protocol's own shows beside
// it in the same run (docs/protocol-floor.md).
//
// Opening is pgconn's (startup, authentication, the server's parameters:
// outside the timed region); the connection is then hijacked from pgconn,
// and every call is messages on the bare pgproto3 Frontend, flushed once,
// then the backend's messages read until ReadyForQuery, each DataRow's text
// values handed to the caller's RowFunc, an ErrorResponse returned as an
// error once the server is ready again. A call without arguments is the
// simple protocol's one Query message; a call with arguments is the
// extended protocol's Parse (the unnamed statement), Bind, Execute and
// Sync in one round trip; Prepare is Parse of a named statement and Sync,
// each use of it Bind, Execute and Sync, and its Close a Close and Sync.
// Arguments and results travel as text (no type OIDs: the server infers
// them), converted with strconv. There is no statement cache, no type map
// and no row buffering: the target runs only the workloads whose calls are
// these (targets.Spec.Only).
package pgproto

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/textrow"
	"github.com/sqlbench/sqlbench/targets/pgdsn"
)

func init() { bench.RegisterOpener("pgproto", Open) }

// Open connects to cfg.Server through pgconn and keeps the bare protocol.
func Open(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
	dsn, err := pgdsn.ConnString(cfg.Server)
	if err != nil {
		return nil, err
	}
	pc, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("connect over %s: %w", cfg.Server.Net, err)
	}
	h, err := pc.Hijack()
	if err != nil {
		pc.Close(ctx)
		return nil, fmt.Errorf("hijack: %w", err)
	}
	return &conn{nc: h.Conn, fe: h.Frontend}, nil
}

// conn is one hijacked connection. It is used by one goroutine at a time
// and keeps its messages, argument buffers and one row for all its calls.
type conn struct {
	nc    net.Conn
	fe    *pgproto3.Frontend
	q     pgproto3.Query
	parse pgproto3.Parse
	bind  pgproto3.Bind
	exec  pgproto3.Execute
	sync  pgproto3.Sync
	args  [][]byte // the Bind's parameters, as text
	buf   []byte   // their bytes
	ends  []int    // where each ends in buf
	stmts int      // the named statements prepared, to name the next
	row   textrow.Row
}

// query sends sql as one Query message, or, with args, as the unnamed
// statement's Parse, Bind, Execute and Sync, and reads the result (read).
func (c *conn) query(sql string, fn bench.RowFunc, first bool, args []any) (rows int, err error) {
	if len(args) == 0 {
		c.q.String = sql
		c.fe.Send(&c.q)
		return c.read(fn, first)
	}
	c.parse.Name, c.parse.Query = "", sql
	c.fe.Send(&c.parse)
	return c.execute("", fn, first, args)
}

// execute sends the Bind of the prepared statement name with args, then
// Execute and Sync, and reads the result (read).
func (c *conn) execute(name string, fn bench.RowFunc, first bool, args []any) (int, error) {
	if err := c.bindArgs(args); err != nil {
		return 0, err
	}
	c.bind.PreparedStatement = name
	c.fe.Send(&c.bind)
	c.fe.Send(&c.exec)
	c.fe.Send(&c.sync)
	return c.read(fn, first)
}

// bindArgs writes args as the Bind's text parameters.
func (c *conn) bindArgs(args []any) error {
	c.buf, c.args, c.ends = c.buf[:0], c.args[:0], c.ends[:0]
	for _, a := range args {
		switch v := a.(type) {
		case int64:
			c.buf = strconv.AppendInt(c.buf, v, 10)
		case int:
			c.buf = strconv.AppendInt(c.buf, int64(v), 10)
		case string:
			c.buf = append(c.buf, v...)
		case []byte:
			c.buf = append(c.buf, v...)
		default:
			return fmt.Errorf("pgproto: cannot send a %T as text", a)
		}
		c.ends = append(c.ends, len(c.buf))
	}
	start := 0
	for _, end := range c.ends {
		c.args = append(c.args, c.buf[start:end:end])
		start = end
	}
	c.bind.Parameters = c.args
	return nil
}

// read flushes what was sent and reads the backend's messages until
// ReadyForQuery. Each DataRow goes to fn while fn returns nil and, when
// first is set, only the first; rows is how many arrived. The server's
// error, else fn's, is returned, always after ReadyForQuery, so that the
// connection is ready for the next call.
func (c *conn) read(fn bench.RowFunc, first bool) (rows int, err error) {
	if err := c.fe.Flush(); err != nil {
		return 0, fmt.Errorf("send: %w", err)
	}
	var fnErr, srvErr error
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			return rows, fmt.Errorf("receive: %w", err)
		}
		switch m := msg.(type) {
		case *pgproto3.DataRow:
			rows++
			if fn != nil && fnErr == nil && (!first || rows == 1) {
				c.row.Values = m.Values
				fnErr = fn(&c.row)
			}
		case *pgproto3.ErrorResponse:
			srvErr = pgconn.ErrorResponseToPgError(m)
		case *pgproto3.ReadyForQuery:
			if srvErr != nil {
				return rows, srvErr
			}
			return rows, fnErr
		}
		// RowDescription, ParseComplete, BindComplete, CloseComplete,
		// CommandComplete, EmptyQueryResponse, notices and parameter
		// changes: read and passed over.
	}
}

// Exec runs query (query), its rows read and dropped.
func (c *conn) Exec(query string, args ...any) error {
	_, err := c.query(query, nil, false, args)
	return err
}

// Query runs query (query) and calls fn for every row.
func (c *conn) Query(query string, fn bench.RowFunc, args ...any) error {
	_, err := c.query(query, fn, false, args)
	return err
}

// QueryRow runs query (query) and calls fn with its first row; the rest
// are read and dropped. No row is bench.ErrNoRows.
func (c *conn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	return noRows(c.query(query, fn, true, args))
}

// noRows returns err, or bench.ErrNoRows when no row arrived.
func noRows(n int, err error) error {
	if err == nil && n == 0 {
		return bench.ErrNoRows
	}
	return err
}

// Prepare sends the Parse of a named statement and Sync.
func (c *conn) Prepare(query string) (bench.Stmt, error) {
	c.stmts++
	name := "s" + strconv.Itoa(c.stmts)
	c.parse.Name, c.parse.Query = name, query
	c.fe.Send(&c.parse)
	c.fe.Send(&c.sync)
	if _, err := c.read(nil, false); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	return &stmt{c: c, name: name}, nil
}

// stmt is a named prepared statement of a conn.
type stmt struct {
	c    *conn
	name string
}

// Exec runs the statement with args (execute), its rows dropped.
func (s *stmt) Exec(args ...any) error {
	_, err := s.c.execute(s.name, nil, false, args)
	return err
}

// Query runs the statement with args and calls fn for every row.
func (s *stmt) Query(fn bench.RowFunc, args ...any) error {
	_, err := s.c.execute(s.name, fn, false, args)
	return err
}

// QueryRow runs the statement with args and calls fn with its first row.
func (s *stmt) QueryRow(fn bench.RowFunc, args ...any) error {
	return noRows(s.c.execute(s.name, fn, true, args))
}

// Close sends Close of the statement and Sync.
func (s *stmt) Close() error {
	s.c.fe.Send(&pgproto3.Close{ObjectType: 'S', Name: s.name})
	s.c.fe.Send(&s.c.sync)
	_, err := s.c.read(nil, false)
	return err
}

// Close sends Terminate and closes the socket.
func (c *conn) Close() error {
	c.fe.Send(&pgproto3.Terminate{})
	ferr := c.fe.Flush()
	if err := c.nc.Close(); err != nil {
		return err
	}
	return ferr
}
