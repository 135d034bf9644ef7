// Package pgproto registers the "pgproto" target: PostgreSQL's protocol
// floor, a minimal client of the frontend/backend protocol written on
// pgx's protocol layer (github.com/jackc/pgx/v5/pgproto3) and nothing
// above it, so that a driver's cost above the protocol's own shows beside
// it in the same run (docs/protocol-floor.md).
//
// Opening is pgconn's (startup, authentication, the server's parameters:
// outside the timed region); the connection is then hijacked from pgconn,
// and every call is the simple query protocol on the bare pgproto3
// Frontend: one Query message, flushed, and the backend's messages read
// until ReadyForQuery, each DataRow's text values handed to the caller's
// RowFunc, an ErrorResponse returned as an error once the server is ready
// again. There is no statement cache, no type map, no row buffering and no
// arguments: the target runs only the workloads whose calls are that
// (targets.Spec.Only).
package pgproto

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/pgdsn"
	"github.com/sqlbench/sqlbench/targets/internal/textrow"
)

func init() { bench.RegisterOpener("pgproto", Open) }

// errArgs is the error of a call with arguments: the floor sends SQL text
// only.
var errArgs = errors.New("pgproto: the protocol floor takes no arguments (SQL text only)")

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
// and keeps one Query message and one row for all its calls.
type conn struct {
	nc  net.Conn
	fe  *pgproto3.Frontend
	q   pgproto3.Query
	row textrow.Row
}

// query sends sql as one Query message and reads the backend's messages
// until ReadyForQuery. Each DataRow goes to fn while fn returns nil and,
// when first is set, only the first; rows is how many arrived. The
// server's error, else fn's, is returned, always after ReadyForQuery, so
// that the connection is ready for the next call.
func (c *conn) query(sql string, fn bench.RowFunc, first bool) (rows int, err error) {
	c.q.String = sql
	c.fe.Send(&c.q)
	if err := c.fe.Flush(); err != nil {
		return 0, fmt.Errorf("send query: %w", err)
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
		// RowDescription, CommandComplete, EmptyQueryResponse, notices
		// and parameter changes: read and passed over.
	}
}

// Exec runs query as one simple Query, its rows read and dropped.
func (c *conn) Exec(query string, args ...any) error {
	if len(args) > 0 {
		return errArgs
	}
	_, err := c.query(query, nil, false)
	return err
}

// Query runs query as one simple Query and calls fn for every row.
func (c *conn) Query(query string, fn bench.RowFunc, args ...any) error {
	if len(args) > 0 {
		return errArgs
	}
	_, err := c.query(query, fn, false)
	return err
}

// QueryRow runs query as one simple Query and calls fn with its first row;
// the rest are read and dropped. No row is bench.ErrNoRows.
func (c *conn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	if len(args) > 0 {
		return errArgs
	}
	n, err := c.query(query, fn, true)
	if err == nil && n == 0 {
		return bench.ErrNoRows
	}
	return err
}

// Prepare is refused: the floor has no extended protocol.
func (c *conn) Prepare(string) (bench.Stmt, error) {
	return nil, errors.New("pgproto: the protocol floor prepares nothing (simple query protocol only)")
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
