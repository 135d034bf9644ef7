// Package exampledriver is a driver package in a module of its own, the
// way a driver's author would write one: it registers the target
// "example-sqlite3", github.com/mattn/go-sqlite3 through database/sql, on
// one connection, with sqlbench's public packages only.
package exampledriver

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" database/sql driver

	"github.com/sqlbench/sqlbench/bench"
)

func init() {
	bench.RegisterOpener("example-sqlite3", open)
}

// open opens the SQLite file cfg.DSN.
func open(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
	db, err := sql.Open("sqlite3", "file:"+cfg.DSN)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return conn{db}, nil
}

// conn is a bench.Conn over a pool of one connection.
type conn struct{ db *sql.DB }

func (c conn) Exec(query string, args ...any) error {
	_, err := c.db.Exec(query, args...)
	return err
}

func (c conn) Query(query string, fn bench.RowFunc, args ...any) error {
	rows, err := c.db.Query(query, args...)
	return each(rows, err, fn)
}

func (c conn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	return one(fn(c.db.QueryRow(query, args...)))
}

func (c conn) Prepare(query string) (bench.Stmt, error) {
	s, err := c.db.Prepare(query)
	if err != nil {
		return nil, err
	}
	return stmt{s}, nil
}

func (c conn) Close() error { return c.db.Close() }

// stmt is a bench.Stmt over a prepared statement.
type stmt struct{ s *sql.Stmt }

func (s stmt) Exec(args ...any) error {
	_, err := s.s.Exec(args...)
	return err
}

func (s stmt) Query(fn bench.RowFunc, args ...any) error {
	rows, err := s.s.Query(args...)
	return each(rows, err, fn)
}

func (s stmt) QueryRow(fn bench.RowFunc, args ...any) error { return one(fn(s.s.QueryRow(args...))) }

func (s stmt) Close() error { return s.s.Close() }

// each calls fn on every row of a query that returned err.
func each(rows *sql.Rows, err error, fn bench.RowFunc) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return rows.Close()
}

// one turns database/sql's no-row error into bench's.
func one(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return bench.ErrNoRows
	}
	return err
}
