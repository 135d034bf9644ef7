// Package sqldb adapts a database/sql pool to bench.Conn, so that every
// database/sql target is driven by the same few lines: the calls a user of
// database/sql would write by hand (db.Exec, db.Query + rows.Next + rows.Scan,
// db.QueryRow().Scan, db.Prepare).
package sqldb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// Open opens driverName with dsn and checks the connection. The pool holds
// one connection, so that every statement runs on the one connection the
// session settings were applied to, unless cfg.Pool asks for more; then
// every connection the pool opens runs cfg.Session first.
func Open(ctx context.Context, driverName, dsn string, cfg bench.Config) (bench.Conn, error) {
	db, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	if cfg.Pool > 1 && len(cfg.Session) > 0 {
		base, err := connector(db.Driver(), dsn)
		db.Close()
		if err != nil {
			return nil, fmt.Errorf("open: %w", err)
		}
		db = sql.OpenDB(sessionConnector{base, cfg.Session})
	}
	return Wrap(ctx, db, cfg)
}

// FileOpener returns the opener of a SQLite database/sql driver registered
// as driverName: it opens the file the target's DSN names, as a "file:"
// URI, through Open.
func FileOpener(driverName string) bench.Opener {
	return func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		return Open(ctx, driverName, "file:"+cfg.DSN, cfg)
	}
}

// Wrap checks the connection of an opened pool and returns it as a
// bench.Conn; it closes db on failure. The pool is sized as for Open.
func Wrap(ctx context.Context, db *sql.DB, cfg bench.Config) (bench.Conn, error) {
	n := max(1, cfg.Pool)
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect: %w", err)
	}
	return Conn{DB: db}, nil
}

// connector returns a connector for dsn of driver d.
func connector(d driver.Driver, dsn string) (driver.Connector, error) {
	if dc, ok := d.(driver.DriverContext); ok {
		return dc.OpenConnector(dsn)
	}
	return dsnConnector{d, dsn}, nil
}

// dsnConnector is a connector for drivers without one of their own.
type dsnConnector struct {
	d   driver.Driver
	dsn string
}

func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.d.Open(c.dsn) }
func (c dsnConnector) Driver() driver.Driver                        { return c.d }

// sessionConnector runs session statements on every new connection.
type sessionConnector struct {
	driver.Connector
	stmts []string
}

func (c sessionConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	for _, q := range c.stmts {
		if err := execDriver(ctx, conn, q); err != nil {
			conn.Close()
			return nil, fmt.Errorf("session setting %q: %w", q, err)
		}
	}
	return conn, nil
}

// execDriver runs q on a driver connection.
func execDriver(ctx context.Context, conn driver.Conn, q string) error {
	if ex, ok := conn.(driver.ExecerContext); ok {
		_, err := ex.ExecContext(ctx, q, nil)
		if err != driver.ErrSkip {
			return err
		}
	}
	st, err := conn.Prepare(q)
	if err != nil {
		return err
	}
	defer st.Close()
	_, err = st.Exec(nil) //nolint:staticcheck // drivers without ExecerContext take []driver.Value
	return err
}

// Conn is a bench.Conn over a database/sql pool.
type Conn struct {
	// DB is the pool; targets may use it for driver-specific set-up.
	DB *sql.DB
}

// Pool returns the pool, also through a target's Conn that embeds this one,
// so that tests can make the calls of a published program on the very pool
// a workload used.
func (c Conn) Pool() *sql.DB { return c.DB }

// PoolWaits implements bench.PoolWaiter from the pool's DB.Stats: the
// waits for a connection (WaitCount) and their total time (WaitDuration).
func (c Conn) PoolWaits() (int64, time.Duration) {
	s := c.DB.Stats()
	return s.WaitCount, s.WaitDuration
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

// QueryRowContext implements bench.ContextQuerier: database/sql's
// QueryRowContext, whose context the driver sees.
func (c Conn) QueryRowContext(ctx context.Context, query string, fn bench.RowFunc, args ...any) error {
	return noRows(fn(c.DB.QueryRowContext(ctx, query, args...)))
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

// BeginTx implements bench.Txer with *sql.Tx: what a database/sql user
// writes for a transaction.
func (c Conn) BeginTx() (bench.Tx, error) {
	tx, err := c.DB.Begin()
	if err != nil {
		return nil, err
	}
	return Tx{tx}, nil
}

// Tx is a bench.Tx over *sql.Tx.
type Tx struct{ tx *sql.Tx }

// Exec implements bench.Tx.
func (t Tx) Exec(query string, args ...any) error {
	_, err := t.tx.Exec(query, args...)
	return err
}

// Prepare implements bench.Tx.
func (t Tx) Prepare(query string) (bench.Stmt, error) {
	s, err := t.tx.Prepare(query)
	if err != nil {
		return nil, err
	}
	return Stmt{s}, nil
}

// Query implements bench.TxQuerier.
func (t Tx) Query(query string, fn bench.RowFunc, args ...any) error {
	rows, err := t.tx.Query(query, args...)
	if err != nil {
		return err
	}
	return eachRow(rows, fn)
}

// Stmt implements bench.TxQuerier: s, a statement of the Conn, bound to
// the transaction (sql.Tx.Stmt, which reuses s's preparation on the
// transaction's connection).
func (t Tx) Stmt(s bench.Stmt) (bench.Stmt, error) {
	st, ok := s.(Stmt)
	if !ok {
		return nil, fmt.Errorf("sqldb: %T is not a statement of this database/sql pool", s)
	}
	return Stmt{t.tx.Stmt(st.s)}, nil
}

// Commit implements bench.Tx.
func (t Tx) Commit() error { return t.tx.Commit() }

// Rollback implements bench.Tx.
func (t Tx) Rollback() error { return t.tx.Rollback() }

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
