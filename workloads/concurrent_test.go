package workloads

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// echoConn is a pooled bench.Conn whose one statement echoes its argument
// and 'foobar', recording every argument it was given.
type echoConn struct {
	mu       sync.Mutex
	args     map[any]int
	prepares int
	echo     string // the string column: 'foobar', or a wrong one
}

func (c *echoConn) Exec(string, ...any) error                    { return nil }
func (c *echoConn) Query(string, bench.RowFunc, ...any) error    { return nil }
func (c *echoConn) QueryRow(string, bench.RowFunc, ...any) error { return nil }
func (c *echoConn) Close() error                                 { return nil }
func (c *echoConn) Prepare(string) (bench.Stmt, error) {
	c.prepares++
	return echoStmt{c}, nil
}

type echoStmt struct{ c *echoConn }

func (s echoStmt) Exec(...any) error                 { return nil }
func (s echoStmt) Query(bench.RowFunc, ...any) error { return nil }
func (s echoStmt) Close() error                      { return nil }
func (s echoStmt) QueryRow(fn bench.RowFunc, args ...any) error {
	if len(args) != 1 {
		return errors.New("want one argument")
	}
	s.c.mu.Lock()
	s.c.args[args[0]]++
	s.c.mu.Unlock()
	return fn(echoRow{args[0], s.c.echo})
}

type echoRow struct {
	v   any
	str string
}

// Scan takes the published program's destinations, an *int and a *string,
// and fails on any other.
func (r echoRow) Scan(dest ...any) error {
	id, ok := dest[0].(*int)
	str, ok2 := dest[1].(*string)
	v, ok3 := r.v.(int)
	if len(dest) != 2 || !ok || !ok2 || !ok3 {
		return fmt.Errorf("scan of %v into %T: want the published program's int sent and scanned into *int, *string",
			r.v, dest)
	}
	*id, *str = v, r.str
	return nil
}

// TestPreparedQueryConcurrentSendsGoroutineIndexes checks the published
// call pattern of PreparedQueryConcurrent: one statement prepared per run
// on the cell's pool (not a pool of its own), shared by N goroutines, each
// sending its own index, an int, as the published program does, never the
// operation number, and scanning the row into an int and a string as it
// does; the row is checked after the clock (End), not inside it; and a run
// refuses a cell connection that is no pool of N.
func TestPreparedQueryConcurrentSendsGoroutineIndexes(t *testing.T) {
	w, ok := bench.LookupWorkload("PreparedQueryConcurrent/conns=4")
	if !ok {
		t.Fatal("not registered")
	}
	c := &echoConn{args: map[any]int{}, echo: "foobar"}
	e := bench.Env{Conn: c, Pool: 4, Dialect: bench.DialectOf(bench.MariaDB), N: 400,
		Open: func(ctx context.Context, pool int) (bench.Conn, error) {
			t.Error("the run opened a connection of its own")
			return nil, errors.New("no")
		}}
	r, err := w.Begin(e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bench.Measure(r, 0, 400, bench.NewLatencyHistogram()); err != nil {
		t.Fatal(err)
	}
	if err := r.End(); err != nil {
		t.Fatal(err)
	}
	total := 0
	for arg, n := range c.args {
		if v, ok := arg.(int); !ok || v < 0 || v > 3 {
			t.Errorf("argument %v (%T) sent %d times: want a goroutine index 0-3", arg, arg, n)
		}
		total += n
	}
	if total != 400 || c.prepares != 1 {
		t.Errorf("%d queries, %d prepares; want 400 and 1", total, c.prepares)
	}
	c.echo = "barfoo"
	if r, err = w.Begin(e); err != nil {
		t.Fatal(err)
	}
	if _, err := bench.Measure(r, 0, 400, bench.NewLatencyHistogram()); err != nil {
		t.Errorf("a wrong row failed the timed run (%v): the published program checks nothing inside its clock", err)
	}
	if err := r.End(); err == nil || !strings.Contains(err.Error(), "barfoo") {
		t.Errorf("End after a run that read wrong rows: %v, want the wrong row named", err)
	}
	e.Pool = 1
	if _, err := w.Begin(e); err == nil {
		t.Error("a run of 4 goroutines began on a connection that serves one")
	}
}

// quietConn is a pooled bench.Conn whose one statement answers every
// query with one fixed row and keeps nothing: what a query of
// PreparedQueryConcurrent allocates through it is the workload's own.
type quietConn struct{ echoConn }

func (c *quietConn) Prepare(string) (bench.Stmt, error) { return quietStmt{}, nil }

type quietStmt struct{ echoStmt }

var quietRow bench.Row = echoRow{0, "foobar"}

func (quietStmt) QueryRow(fn bench.RowFunc, _ ...any) error { return fn(quietRow) }

// TestPreparedQueryConcurrentAllocatesNothingOfItsOwn: the published
// goroutine's call (`stmt.QueryRow(i).Scan(&id, &str)`) allocates nothing
// but what database/sql and the driver do; the workload's operation must
// not either (its argument list, made per call, escaped through the
// bench.Stmt interface: one allocation a query).
func TestPreparedQueryConcurrentAllocatesNothingOfItsOwn(t *testing.T) {
	w, _ := bench.LookupWorkload("PreparedQueryConcurrent/conns=1")
	r, err := w.Begin(bench.Env{Conn: &quietConn{}, Pool: 1, Dialect: bench.DialectOf(bench.MariaDB), N: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	op := r.Parallel[0]
	if allocs := testing.AllocsPerRun(1000, func() {
		if err := op(0); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("%v allocations an operation, want 0", allocs)
	}
	if err := errors.Join(r.Finish(), r.End()); err != nil {
		t.Error(err)
	}
}
