package targettest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// Calls counts the bench calls a workload makes, by name ("Query",
// "Stmt.Exec", "Tx.Commit"), and the Go types of its Scan destinations.
// Through the database/sql adapter one bench call is one database/sql call,
// so the counts are the database/sql calls a published Go program is
// compared with.
type Calls struct {
	mu    sync.Mutex
	n     map[string]int
	dests map[string]bool
	args  map[string]bool
}

// Count makes e's connection, and every connection e.Open makes, count
// their calls into a new Calls; e.Open counts itself as "Open" (the
// session settings it applies are not counted). A connection held from a
// pool (bench.Holder) stays one, its calls counted as "Hold" and
// "Release".
func Count(e *bench.Env) *Calls {
	c := &Calls{n: map[string]int{}, dests: map[string]bool{}, args: map[string]bool{}}
	e.Conn = c.wrap(e.Conn)
	if open := e.Open; open != nil {
		e.Open = func(ctx context.Context, pool int) (bench.Conn, error) {
			c.add("Open")
			cc, err := open(ctx, pool)
			if err != nil {
				return nil, err
			}
			return c.wrap(cc), nil
		}
	}
	return c
}

// wrap returns conn counting its calls into c.
func (c *Calls) wrap(conn bench.Conn) bench.Conn {
	cc := countConn{conn, c}
	if h, ok := conn.(bench.Holder); ok {
		return countHolder{cc, h}
	}
	return cc
}

// Reset forgets what was counted so far.
func (c *Calls) Reset() {
	c.mu.Lock()
	clear(c.n)
	clear(c.dests)
	clear(c.args)
	c.mu.Unlock()
}

// Snapshot returns the calls counted so far and the Scan destinations
// seen, each as its types joined by spaces.
func (c *Calls) Snapshot() (map[string]int, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.n), slices.Sorted(maps.Keys(c.dests))
}

// ExecArgs returns the Go types of the arguments prepared statements were
// executed with, each execution's joined by spaces.
func (c *Calls) ExecArgs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.args))
}

func (c *Calls) add(name string) {
	c.mu.Lock()
	c.n[name]++
	c.mu.Unlock()
}

func (c *Calls) scanned(dest []any) { c.record(c.dests, dest) }

func (c *Calls) record(m map[string]bool, vs []any) {
	types := make([]string, len(vs))
	for i, v := range vs {
		types[i] = fmt.Sprintf("%T", v)
	}
	c.mu.Lock()
	m[strings.Join(types, " ")] = true
	c.mu.Unlock()
}

func (c *Calls) rows(fn bench.RowFunc) bench.RowFunc {
	return func(r bench.Row) error { return fn(countRow{r, c}) }
}

// countConn counts a Conn's calls. It keeps the connection's own
// transactions (bench.Txer) where the connection has them.
type countConn struct {
	bench.Conn
	c *Calls
}

func (cc countConn) Exec(q string, args ...any) error {
	cc.c.add("Exec")
	return cc.Conn.Exec(q, args...)
}

func (cc countConn) Query(q string, fn bench.RowFunc, args ...any) error {
	cc.c.add("Query")
	return cc.Conn.Query(q, cc.c.rows(fn), args...)
}

// QueryCached counts a read through the library's statement cache
// (bench.QueryCached) as "QueryCached" where the connection has one, and
// as the "Query" bench.QueryCached makes where it has none.
func (cc countConn) QueryCached(q string, fn bench.RowFunc, args ...any) error {
	if _, ok := cc.Conn.(bench.CachedQuerier); !ok {
		return cc.Query(q, fn, args...)
	}
	cc.c.add("QueryCached")
	return bench.QueryCached(cc.Conn, q, cc.c.rows(fn), args...)
}

func (cc countConn) QueryRow(q string, fn bench.RowFunc, args ...any) error {
	cc.c.add("QueryRow")
	return cc.Conn.QueryRow(q, cc.c.rows(fn), args...)
}

func (cc countConn) Prepare(q string) (bench.Stmt, error) {
	cc.c.add("Prepare")
	s, err := cc.Conn.Prepare(q)
	if err != nil {
		return nil, err
	}
	return countStmt{s, cc.c}, nil
}

// BeginTx starts a transaction through the connection's own API, or with
// the SQL statement BEGIN as bench.Begin would.
func (cc countConn) BeginTx() (bench.Tx, error) {
	cc.c.add("BeginTx")
	tx, err := bench.Begin(cc.Conn)
	if err != nil {
		return nil, err
	}
	return countTx{tx, cc.c}, nil
}

// countHolder is a countConn of a connection held from a pool.
type countHolder struct {
	countConn
	h bench.Holder
}

func (ch countHolder) Hold() error {
	ch.c.add("Hold")
	return ch.h.Hold()
}

func (ch countHolder) Release() {
	ch.c.add("Release")
	ch.h.Release()
}

type countTx struct {
	bench.Tx
	c *Calls
}

func (t countTx) Exec(q string, args ...any) error {
	t.c.add("Tx.Exec")
	return t.Tx.Exec(q, args...)
}

func (t countTx) Prepare(q string) (bench.Stmt, error) {
	t.c.add("Tx.Prepare")
	s, err := t.Tx.Prepare(q)
	if err != nil {
		return nil, err
	}
	return countStmt{s, t.c}, nil
}

func (t countTx) Commit() error {
	t.c.add("Tx.Commit")
	return t.Tx.Commit()
}

func (t countTx) Rollback() error {
	t.c.add("Tx.Rollback")
	return t.Tx.Rollback()
}

type countStmt struct {
	bench.Stmt
	c *Calls
}

func (s countStmt) Exec(args ...any) error {
	s.c.add("Stmt.Exec")
	s.c.record(s.c.args, args)
	return s.Stmt.Exec(args...)
}

func (s countStmt) Query(fn bench.RowFunc, args ...any) error {
	s.c.add("Stmt.Query")
	return s.Stmt.Query(s.c.rows(fn), args...)
}

func (s countStmt) QueryRow(fn bench.RowFunc, args ...any) error {
	s.c.add("Stmt.QueryRow")
	return s.Stmt.QueryRow(s.c.rows(fn), args...)
}

func (s countStmt) Close() error {
	s.c.add("Stmt.Close")
	return s.Stmt.Close()
}

type countRow struct {
	bench.Row
	c *Calls
}

func (r countRow) Scan(dest ...any) error {
	r.c.scanned(dest)
	return r.Row.Scan(dest...)
}

// ClockedCalls is what one measured run of a workload called inside the
// clock: the bench calls by name, the types rows were scanned into and the
// types prepared statements were executed with (each as Snapshot and
// ExecArgs give them).
type ClockedCalls struct {
	Calls       map[string]int
	Dests, Args []string
}

// CountInClock sets w up on target at where, begins a run of n operations
// (no warm-up), and counts the calls the n timed operations make (Begin's
// are before the clock and not counted); it fails t if the run fails.
func CountInClock(t testing.TB, target string, where Where, w bench.Workload, n int) ClockedCalls {
	t.Helper()
	return CountRun(t, target, where, w, n).Clock
}

// RunCalls are the calls of one run of a workload, by where they were made:
// in its Begin, inside the clock, in its End.
type RunCalls struct {
	Begin, End map[string]int
	Clock      ClockedCalls
}

// CountRun sets w up on target at where, runs n operations (no warm-up)
// and counts the calls of the run's Begin, of its n timed operations and
// of its End apart; it fails t if the run fails.
func CountRun(t testing.TB, target string, where Where, w bench.Workload, n int) RunCalls {
	t.Helper()
	e := NewEnv(t, target, where)
	setUp(t, w, e)
	c := Count(&e)
	e.Warm, e.N = 0, n
	r, err := w.Begin(e)
	if err != nil {
		t.Fatal(err)
	}
	var rc RunCalls
	rc.Begin, _ = c.Snapshot()
	c.Reset()
	_, err = bench.Measure(r, 0, n, bench.NewLatencyHistogram())
	calls, dests := c.Snapshot()
	rc.Clock = ClockedCalls{Calls: calls, Dests: dests, Args: c.ExecArgs()}
	c.Reset()
	if r.End != nil {
		if eerr := r.End(); err == nil {
			err = eerr
		}
	}
	rc.End, _ = c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return rc
}
