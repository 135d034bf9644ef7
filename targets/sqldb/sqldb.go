// Package sqldb adapts a database/sql pool to bench.Conn, so that every
// database/sql target is driven by the same few lines: the calls a user of
// database/sql would write by hand (db.Exec, db.Query + rows.Next + rows.Scan,
// db.QueryRow().Scan, db.Prepare).
package sqldb

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/sqlbench/sqlbench/bench"
)

// Open opens driverName with dsn and checks the connection. maxConns bounds
// the pool (0 leaves database/sql's default); SQLite targets use 1 so that
// every statement runs on the one connection the session settings were
// applied to.
func Open(ctx context.Context, driverName, dsn string, maxConns int) (bench.Conn, error) {
	db, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	return Wrap(ctx, db, maxConns)
}

// Wrap checks the connection of an opened pool and returns it as a
// bench.Conn; it closes db on failure. maxConns is as for Open.
func Wrap(ctx context.Context, db *sql.DB, maxConns int) (bench.Conn, error) {
	if maxConns > 0 {
		db.SetMaxOpenConns(maxConns)
		db.SetMaxIdleConns(maxConns)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect: %w", err)
	}
	return Conn{DB: db}, nil
}

// Conn is a bench.Conn over a database/sql pool.
type Conn struct {
	// DB is the pool; targets may use it for driver-specific set-up.
	DB *sql.DB
}

// Exec implements bench.Conn.
func (c Conn) Exec(query string, args ...any) error {
	_, err := c.DB.Exec(query, args...)
	return err
}

// Query implements bench.Conn.
func (c Conn) Query(query string, fn bench.RowFunc, args ...any) error {
	rows, err := c.DB.Query(query, args...)
	if err != nil {
		return err
	}
	return eachRow(rows, fn)
}

// QueryRow implements bench.Conn.
func (c Conn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	return noRows(fn(c.DB.QueryRow(query, args...)))
}

// Prepare implements bench.Conn.
func (c Conn) Prepare(query string) (bench.Stmt, error) {
	s, err := c.DB.Prepare(query)
	if err != nil {
		return nil, err
	}
	return Stmt{s}, nil
}

// Close implements bench.Conn.
func (c Conn) Close() error { return c.DB.Close() }

// Stmt is a bench.Stmt over *sql.Stmt.
type Stmt struct{ s *sql.Stmt }

// Exec implements bench.Stmt.
func (s Stmt) Exec(args ...any) error {
	_, err := s.s.Exec(args...)
	return err
}

// Query implements bench.Stmt.
func (s Stmt) Query(fn bench.RowFunc, args ...any) error {
	rows, err := s.s.Query(args...)
	if err != nil {
		return err
	}
	return eachRow(rows, fn)
}

// QueryRow implements bench.Stmt.
func (s Stmt) QueryRow(fn bench.RowFunc, args ...any) error {
	return noRows(fn(s.s.QueryRow(args...)))
}

// Close implements bench.Stmt.
func (s Stmt) Close() error { return s.s.Close() }

func eachRow(rows *sql.Rows, fn bench.RowFunc) error {
	for rows.Next() {
		if err := fn(rows); err != nil {
			rows.Close()
			return err
		}
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return err
	}
	return rows.Close()
}

func noRows(err error) error {
	if err == sql.ErrNoRows {
		return bench.ErrNoRows
	}
	return err
}
