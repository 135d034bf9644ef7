// Package native adapts the statement-and-step APIs of native SQLite
// libraries (crawshaw, zombiezen, ncruces, bvinc, eatonphil) to bench.Conn.
// A driver package supplies a small Stmt adapter (crawshaw and zombiezen,
// whose APIs are the same, share the one in RegisterStep; bvinc and
// eatonphil share LiteAdapter); this package turns it into the simple,
// prepared and single-row calls the workloads make, the same way for all of
// them:
//
//   - simple calls compile the SQL text every time (a transient statement),
//     step it and finalize it;
//   - prepared statements are compiled once, and reset and rebound per use;
//   - QueryRow steps once and finalizes (simple) or resets (prepared);
//   - bench.QueryCached, where the library caches statements by their SQL
//     text (Cacher: crawshaw, zombiezen), takes the library's cached
//     statement, as a program calling the library's Prepare does.
package native

import (
	"fmt"
	"math"

	"github.com/sqlbench/sqlbench/bench"
)

// Stmt is what a driver package provides for one compiled statement.
type Stmt interface {
	bench.Columns
	// Scan is bench.Row's Scan on the current row; adapters implement it as
	// bench.ScanColumns(s, dest...).
	bench.Row
	// Bind binds args to parameters 1..len(args).
	Bind(args []any) error
	// Step advances to the next row; it reports false when the statement is
	// done.
	Step() (bool, error)
	// Reset makes the statement ready to run again; its bindings stay.
	Reset() error
	// ClearBindings sets every parameter to NULL.
	ClearBindings() error
	// Finalize releases the statement.
	Finalize() error
}

// Driver is what a driver package provides for one open connection.
type Driver interface {
	// Compile compiles query into a new statement that is not cached.
	Compile(query string) (Stmt, error)
	// Close closes the connection.
	Close() error
}

// Cacher is implemented by a Driver whose library caches compiled
// statements by their SQL text (crawshaw's and zombiezen's Conn.Prepare).
type Cacher interface {
	// Cached returns the library's statement for query, compiled on its
	// first use and reset with its bindings cleared on every later one, as
	// the library's Prepare returns it. The caller does not finalize it.
	Cached(query string) (Stmt, error)
}

// NewConn returns a bench.Conn over d.
func NewConn(d Driver) bench.Conn { return &conn{d: d} }

// Pool is a connection of a pool, taken from it and given back for each
// call of a published adapter (bench.Checkouter) or held for a whole test
// (bench.Holder).
type Pool interface {
	bench.Checkouter
	bench.Holder
}

// NewPooledConn returns a bench.Conn over d whose connection p takes from
// its pool and gives back, as a published program does.
func NewPooledConn(d Driver, p Pool) bench.Conn {
	return &pooledConn{conn: &conn{d: d}, Pool: p}
}

// pooledConn is a conn with its pool's checkout and checkin, hold and
// release.
type pooledConn struct {
	*conn
	Pool
}

type conn struct{ d Driver }

func (c *conn) once(query string, args []any, run func(Stmt) error) error {
	s, err := c.d.Compile(query)
	if err != nil {
		return err
	}
	err = bindRun(s, args, run)
	if ferr := s.Finalize(); err == nil {
		err = ferr
	}
	return err
}

func (c *conn) Exec(query string, args ...any) error {
	return c.once(query, args, drain)
}

func (c *conn) Query(query string, fn bench.RowFunc, args ...any) error {
	return c.once(query, args, func(s Stmt) error { return each(s, fn) })
}

// QueryCached implements bench.CachedQuerier: through the library's
// statement cache where the driver has one (Cacher), else as Query. A
// statement read to its end is done and holds no lock, as in a program
// that calls the library's Prepare and steps until there is no more row;
// one abandoned early is reset, so that it holds none either.
func (c *conn) QueryCached(query string, fn bench.RowFunc, args ...any) error {
	cd, ok := c.d.(Cacher)
	if !ok {
		return c.Query(query, fn, args...)
	}
	s, err := cd.Cached(query)
	if err != nil {
		return err
	}
	if err := bindRun(s, args, func(s Stmt) error { return each(s, fn) }); err != nil {
		s.Reset()
		return err
	}
	return nil
}

func (c *conn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	return c.once(query, args, func(s Stmt) error { return first(s, fn) })
}

// Prepare compiles query; where the adapter binds with typed calls
// (Binder) the statement offers them (bench.BoundExecer), as the library's
// own statement does.
func (c *conn) Prepare(query string) (bench.Stmt, error) {
	s, err := c.d.Compile(query)
	if err != nil {
		return nil, err
	}
	if b, ok := s.(Binder); ok {
		return &boundStmt{stmt: stmt{s: s}, b: b}, nil
	}
	return &stmt{s: s}, nil
}

func (c *conn) Close() error { return c.d.Close() }

// stmt is a prepared statement; bound is how many arguments its last use
// bound.
type stmt struct {
	s     Stmt
	bound int
}

// use binds args, runs the statement and resets it, as the published
// programs do per row (bind, step, reset): the bindings are cleared only
// before a use that binds fewer arguments than the last, which would
// otherwise run with the last one's values.
func (p *stmt) use(args []any, run func(Stmt) error) error {
	if len(args) < p.bound {
		if err := p.s.ClearBindings(); err != nil {
			return err
		}
	}
	p.bound = len(args)
	err := bindRun(p.s, args, run)
	if rerr := p.s.Reset(); err == nil {
		err = rerr
	}
	return err
}

func (p *stmt) Exec(args ...any) error { return p.use(args, drain) }

func (p *stmt) Query(fn bench.RowFunc, args ...any) error {
	return p.use(args, func(s Stmt) error { return each(s, fn) })
}

func (p *stmt) QueryRow(fn bench.RowFunc, args ...any) error {
	return p.use(args, func(s Stmt) error { return first(s, fn) })
}

func (p *stmt) Close() error { return p.s.Finalize() }

// boundStmt is a prepared statement whose adapter binds with typed calls:
// bench.BoundExecer, each call going straight to the library's, as a
// program binding per row calls them.
type boundStmt struct {
	stmt
	b Binder
}

func (p *boundStmt) BindInt64(i int, v int64) error   { return p.b.BindInt64(i, v) }
func (p *boundStmt) BindFloat(i int, v float64) error { return p.b.BindFloat(i, v) }
func (p *boundStmt) BindText(i int, v string) error   { return p.b.BindText(i, v) }

// ExecBound steps the statement to its end with what is bound and resets
// it. How many parameters were bound is not known here, so the next Exec
// with arguments clears the bindings first.
func (p *boundStmt) ExecBound() error {
	p.bound = math.MaxInt
	err := drain(p.s)
	if rerr := p.s.Reset(); err == nil {
		err = rerr
	}
	return err
}

func bindRun(s Stmt, args []any, run func(Stmt) error) error {
	if len(args) > 0 {
		if err := s.Bind(args); err != nil {
			return err
		}
	}
	return run(s)
}

func drain(s Stmt) error {
	for {
		more, err := s.Step()
		if err != nil || !more {
			return err
		}
	}
}

func each(s Stmt, fn bench.RowFunc) error {
	for {
		more, err := s.Step()
		if err != nil || !more {
			return err
		}
		if err := fn(s); err != nil {
			return err
		}
	}
}

func first(s Stmt, fn bench.RowFunc) error {
	more, err := s.Step()
	if err != nil {
		return err
	}
	if !more {
		return bench.ErrNoRows
	}
	return fn(s)
}

// Binder is the typed bind calls the libraries share; parameters are
// 1-based.
type Binder interface {
	bench.ParamBinder
	BindBytes(param int, v []byte) error
	BindNull(param int) error
}

// BindArgs binds args to parameters 1..len(args) of b by their Go type.
func BindArgs(b Binder, args []any) error {
	for i, a := range args {
		p := i + 1
		var err error
		switch v := a.(type) {
		case nil:
			err = b.BindNull(p)
		case int:
			err = b.BindInt64(p, int64(v))
		case int64:
			err = b.BindInt64(p, v)
		case int32:
			err = b.BindInt64(p, int64(v))
		case float64:
			err = b.BindFloat(p, v)
		case string:
			err = b.BindText(p, v)
		case []byte:
			err = b.BindBytes(p, v)
		case bool:
			var n int64
			if v {
				n = 1
			}
			err = b.BindInt64(p, n)
		default:
			err = fmt.Errorf("bind: unsupported argument type %T for parameter %d", a, p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
