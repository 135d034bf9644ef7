// Package crawshaw registers the "crawshaw" target: the native API of
// crawshaw.io/sqlite (cgo).
package crawshaw

import (
	"context"
	"errors"

	"crawshaw.io/sqlite"
	"crawshaw.io/sqlite/sqlitex"

	"github.com/sqlbench/sqlbench/targets/internal/native"
)

func init() {
	native.RegisterStep("crawshaw", open, sqlite.SQLITE_NULL)
}

// open opens the connection as cvilsmeier's published craw programs do:
// the one connection of a sqlitex.Pool, with their flags.
func open(dsn string) (*pooled, error) {
	pool, err := sqlitex.Open(dsn,
		sqlite.SQLITE_OPEN_READWRITE|sqlite.SQLITE_OPEN_CREATE|sqlite.SQLITE_OPEN_URI|sqlite.SQLITE_OPEN_NOMUTEX, 1)
	if err != nil {
		return nil, err
	}
	// The connection stays in the pool between a workload's checkouts,
	// and is used from here in between (untimed work, and every workload
	// that does not check it out): only this target takes it.
	p := &pooled{Conn: pool.Get(nil), pool: pool, out: true}
	p.Checkin()
	return p, nil
}

// pooled is the pool's connection, taken from it and given back per
// published adapter call (bench.Checkouter), as the go-sqlite-bench craw
// adapter does: Get with a context (context.TODO(): a cancel context, a
// tracer and a goroutine that watches it for an interrupt) and Put; or
// held for a test (bench.Holder), as the Sqinn-Go craw program does: Get
// without a context (a cancel context and its goroutine, no tracer) and
// Put.
type pooled struct {
	*sqlite.Conn
	pool *sqlitex.Pool
	out  bool // checked out
}

// Checkout takes the connection from the pool with context.TODO().
func (p *pooled) Checkout() error { return p.get(context.TODO()) }

// Hold takes the connection from the pool with a nil context.
func (p *pooled) Hold() error { return p.get(nil) }

// Release puts the connection back, as Checkin.
func (p *pooled) Release() { p.Checkin() }

// get takes the connection from the pool with ctx (nil or not).
func (p *pooled) get(ctx context.Context) error {
	if p.out {
		return errors.New("crawshaw: connection checked out twice")
	}
	if c := p.pool.Get(ctx); c != p.Conn {
		return errors.New("crawshaw: the pool gave another connection")
	}
	p.out = true
	return nil
}

// Checkin puts the connection back. Put cancels the context of its Get,
// which makes the connection refuse every statement (SQLITE_INTERRUPT)
// until the next Get sets a context of its own; the connection is ready
// again for the work between checkouts once its interrupt is unset, which
// the next Get would do first (the same handshake with the goroutine
// that watched the context, done here rather than there).
func (p *pooled) Checkin() {
	if p.out {
		p.out = false
		p.pool.Put(p.Conn)
		p.Conn.SetInterrupt(nil)
	}
}

// Close closes the pool and its connection.
func (p *pooled) Close() error {
	p.Checkin()
	return p.pool.Close()
}
