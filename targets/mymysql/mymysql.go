// Package mymysql registers two targets for github.com/ziutek/mymysql:
// "mymysql" through database/sql (its godrv driver) and "mymysql-native"
// through its own connection API.
package mymysql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	_ "github.com/ziutek/mymysql/godrv" // registers the "mymysql" database/sql driver
	"github.com/ziutek/mymysql/mysql"
	"github.com/ziutek/mymysql/native"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
)

func init() {
	bench.RegisterOpener("mymysql", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		if err := noTLS(cfg.Server); err != nil {
			return nil, err
		}
		dsn, err := godrvDSN(cfg.Server)
		if err != nil {
			return nil, err
		}
		return sqldb.Open(ctx, "mymysql", dsn, cfg)
	}, bench.CapPool)
	bench.RegisterOpener("mymysql-native", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		e := cfg.Server
		if err := noTLS(e); err != nil {
			return nil, err
		}
		c := native.New(e.Net, "", e.Addr, e.User, e.Password, e.Database)
		if err := c.Connect(); err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		return nativeConn{c}, nil
	})
}

// noTLS refuses an endpoint asking for TLS: mymysql has no TLS client.
func noTLS(e bench.Endpoint) error {
	if e.TLS != bench.TLSOff {
		return errors.New("mymysql has no TLS client: it connects in plain text only")
	}
	return nil
}

// godrvDSN formats e as godrv's "proto:addr*dbname/user/password".
func godrvDSN(e bench.Endpoint) (string, error) {
	if strings.ContainsAny(e.Addr, "*,") || strings.Contains(e.Database, "/") || strings.Contains(e.User, "/") {
		return "", errors.New("mymysql cannot express this address, database or user in its DSN")
	}
	return e.Net + ":" + e.Addr + "*" + e.Database + "/" + e.User + "/" + e.Password, nil
}

// nativeConn is bench.Conn over one mymysql connection. Results are
// streamed row by row (Start + ScanRow), never read whole. The native API's
// own arguments to Start are fmt.Sprintf verbs, not placeholders, so a call
// with arguments runs as a server-side prepared statement (prepare, run,
// delete), as database/sql does for a driver that does not interpolate.
type nativeConn struct{ c mysql.Conn }

// start runs query with args and returns its result; done releases what
// start made.
func (n nativeConn) start(query string, args []any) (res mysql.Result, done func() error, err error) {
	if len(args) == 0 {
		res, err = n.c.Start(query)
		return res, func() error { return nil }, err
	}
	s, err := n.c.Prepare(query)
	if err != nil {
		return nil, nil, err
	}
	res, err = s.Run(args...)
	if err != nil {
		s.Delete()
		return nil, nil, err
	}
	return res, s.Delete, nil
}

// use runs query with args and hands its result to read.
func (n nativeConn) use(query string, args []any, read func(mysql.Result) error) error {
	res, done, err := n.start(query, args)
	if err != nil {
		return err
	}
	err = read(res)
	if derr := done(); err == nil {
		err = derr
	}
	return err
}

func (n nativeConn) Exec(query string, args ...any) error {
	return n.use(query, args, drain)
}

func (n nativeConn) Query(query string, fn bench.RowFunc, args ...any) error {
	return n.use(query, args, func(res mysql.Result) error { return each(res, fn) })
}

func (n nativeConn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	return n.use(query, args, func(res mysql.Result) error { return first(res, fn) })
}

func (n nativeConn) Prepare(query string) (bench.Stmt, error) {
	s, err := n.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	return nativeStmt{s}, nil
}

func (n nativeConn) Close() error { return n.c.Close() }

type nativeStmt struct{ s mysql.Stmt }

func (p nativeStmt) Exec(args ...any) error {
	res, err := p.s.Run(args...)
	if err != nil {
		return err
	}
	return drain(res)
}

func (p nativeStmt) Query(fn bench.RowFunc, args ...any) error {
	res, err := p.s.Run(args...)
	if err != nil {
		return err
	}
	return each(res, fn)
}

func (p nativeStmt) QueryRow(fn bench.RowFunc, args ...any) error {
	res, err := p.s.Run(args...)
	if err != nil {
		return err
	}
	return first(res, fn)
}

func (p nativeStmt) Close() error { return p.s.Delete() }

// each calls fn for every row of res, reusing one row buffer.
func each(res mysql.Result, fn bench.RowFunc) error {
	if res.StatusOnly() {
		return nil
	}
	r := &row{r: res.MakeRow()}
	for {
		err := res.ScanRow(r.r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			_ = res.End()
			return err
		}
	}
}

// first calls fn with the first row of res and discards the rest.
func first(res mysql.Result, fn bench.RowFunc) error {
	if res.StatusOnly() {
		return bench.ErrNoRows
	}
	r := &row{r: res.MakeRow()}
	err := res.ScanRow(r.r)
	if err == io.EOF {
		return bench.ErrNoRows
	}
	if err != nil {
		return err
	}
	err = fn(r)
	if eerr := res.End(); err == nil {
		err = eerr
	}
	return err
}

func drain(res mysql.Result) error {
	if res.StatusOnly() {
		return nil
	}
	return res.End()
}

// row adapts a mysql.Row to bench.Row through bench.ScanColumns.
type row struct{ r mysql.Row }

func (r *row) Scan(dest ...any) error    { return bench.ScanColumns(r, dest...) }
func (r *row) ColumnCount() int          { return len(r.r) }
func (r *row) ColumnNull(i int) bool     { return r.r[i] == nil }
func (r *row) ColumnInt64(i int) int64   { return r.r.Int64(i) }
func (r *row) ColumnFloat(i int) float64 { return r.r.Float(i) }
func (r *row) ColumnText(i int) string   { return r.r.Str(i) }

func (r *row) ColumnBytes(i int, buf []byte) []byte { return append(buf[:0], r.r.Bin(i)...) }

// ColumnRaw implements bench.RawColumns: a text or binary column is a []byte
// of the row buffer ScanRow fills, handed over without a copy.
func (r *row) ColumnRaw(i int) []byte { return r.r.Bin(i) }
