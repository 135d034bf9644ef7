package workloads

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/sqlbench/sqlbench/bench"
)

// The concurrent workloads of the sqlbench2 family: one prepared statement
// on a pool, shared by N goroutines, as the published program shares one
// *sql.Stmt of its one *sql.DB. They need a pooled target (bench.CapPool).
//
// The pool is the cell's own connection (bench.Workload.Pool), open for the
// cell's whole life as the published program's *sql.DB is open for its
// whole run; each run prepares the statement on it and closes it after,
// both inside the clock as in the published program (bench.Run.Start and
// Finish).
// The published pool has no cap on open connections (SetMaxIdleConns(16),
// no SetMaxOpenConns); this one is held at N open and idle. With N
// goroutines that each hold one connection at a time, database/sql opens a
// connection only when every open one is busy, so neither pool ever has
// more than N open or makes a goroutine wait: the cap does not bind. What
// differs is history: the published pool keeps up to 16 idle connections
// from earlier tests, which its last-in-first-out free list leaves unused.

// concurrencyLevels are the goroutine counts of the original suite.
var concurrencyLevels = [...]int{1, 2, 4, 8, 16}

// concurrentSmoke is the smoke (--quick) scale: 500 operations per level,
// so that ten cells per target stay a smoke test on a server.
const concurrentSmoke = 0.001

// concurrentNoop is the no-op PreparedExecConcurrent runs: MySQL's DO 1,
// the dialect's no-op elsewhere.
func concurrentNoop(d bench.Dialect) string {
	if d.DB == bench.MariaDB {
		return "DO 1"
	}
	return d.NoopExec
}

// concurrentEcho is the query PreparedQueryConcurrent runs.
func concurrentEcho(d bench.Dialect) string {
	if d.DB == bench.Postgres {
		return "SELECT $1::int8, 'foobar'"
	}
	return "SELECT ?, 'foobar'"
}

func concurrentWorkloads() []bench.Workload {
	var ws []bench.Workload
	for _, n := range concurrencyLevels {
		keys := "conns=" + strconv.Itoa(n)
		ws = append(ws,
			bench.Workload{
				Name: "PreparedExecConcurrent", Keys: keys, Ops: 500_000, Unit: "execs", Smoke: concurrentSmoke,
				Pool: n,
				Describe: func(d bench.Dialect) string {
					return "`" + concurrentNoop(d) + "` through one statement shared by " + sharers(n)
				},
				Begin: func(e bench.Env) (bench.Run, error) {
					return concurrentRun(e, n, concurrentNoop(e.Dialect), func(s *timedStmt, _ int) func(int) error {
						return func(int) error { return s.s.Exec() }
					})
				},
			},
			bench.Workload{
				Name: "PreparedQueryConcurrent", Keys: keys, Ops: 500_000, Unit: "queries", Smoke: concurrentSmoke,
				Pool: n,
				Describe: func(d bench.Dialect) string {
					return "`" + concurrentEcho(d) + "` through one statement and the one-row call, shared by " +
						sharers(n) + "; each goroutine sends its index (0 to N-1, an int, as the published " +
						"program) and scans the row into an int and a string, as it does; each goroutine's last " +
						"row is checked (its index and 'foobar') after the clock"
				},
				Begin: func(e bench.Env) (bench.Run, error) {
					clients := make([]*echoFoobar, n)
					r, err := concurrentRun(e, n, concurrentEcho(e.Dialect), func(s *timedStmt, k int) func(int) error {
						// The published program passes its goroutine's
						// index (since its 2021 closure fix; its 2013 run
						// passed the shared loop variable, in practice N),
						// an int, as here: one small integer per goroutine,
						// which boxes without allocating. An operation
						// number would cost allocations the program does
						// not make. Its argument list is made once: a list
						// made per call would escape through the bench.Stmt
						// interface, one allocation a query the program's
						// direct call (`stmt.QueryRow(i)`) does not make.
						c := newEchoFoobar(k)
						clients[k] = c
						row, args := c.row, []any{c.arg}
						return func(int) error { return s.s.QueryRow(row, args...) }
					})
					if err != nil {
						return r, err
					}
					finish := r.End
					r.End = func() error { return errors.Join(finish(), checkEchoes(clients)) }
					return r, nil
				},
			})
	}
	for i := range ws {
		ws[i].Family, ws[i].Needs = sqlbench2Family, bench.CapPool
		ws[i].Setup = func(bench.Env) error { return nil }
		ws[i].Teardown = func(bench.Env) error { return nil }
	}
	return ws
}

// sharers says who shares the statement: n goroutines on the cell's pool.
func sharers(n int) string {
	const timed = ", the statement prepared before they start and closed after they end, inside the clock"
	if n == 1 {
		return "1 goroutine on the cell's pool of 1 connection, open for the whole cell" + timed
	}
	return fmt.Sprintf("%d goroutines on the cell's pool of %d connections, open for the whole cell", n, n) + timed
}

// concurrentRun returns a run of n clients sharing statement q on the
// cell's pool, client k made by client from the shared statement and k. The
// run prepares the statement before the clients start and closes it after
// they end, inside the clock (Start, Finish), and keeps it open between its
// slices (Carry); the pool stays open for the cell's next run.
func concurrentRun(e bench.Env, n int, q string, client func(s *timedStmt, k int) func(int) error) (bench.Run, error) {
	if n > 1 && e.Pool < n {
		return bench.Run{},
			fmt.Errorf("the cell's connection serves %d goroutine(s) at once, %d need it", max(1, e.Pool), n)
	}
	s := newTimedStmt(e.Conn, q)
	ops := make([]func(int) error, n)
	for k := range ops {
		ops[k] = client(s, k)
	}
	// Carry: the statement stays open from one slice of the run to the
	// next, prepared on every connection that ran it, as the published
	// run's; prepared again each slice, each slice's goroutines prepared it
	// again on every other connection inside the clock (80 prepares a run
	// of 16 goroutines in 5 slices, against the program's 16).
	return bench.Run{Parallel: ops, Start: s.start, Finish: s.finish, End: s.finish, Carry: true}, nil
}

// echoFoobar is one client of PreparedQueryConcurrent: the number it sends
// (its index) and the row it scans, into an int and a string as the
// published program's goroutine does (`Scan(&id, &str)`), with nothing
// else done per row inside the clock; checkEchoes checks the last row each
// client read, after the clock.
type echoFoobar struct {
	arg  int
	id   int
	str  string
	dest []any
}

// newEchoFoobar returns client k, its row not yet read.
func newEchoFoobar(k int) *echoFoobar {
	c := &echoFoobar{arg: k, id: ^k}
	c.dest = []any{&c.id, &c.str}
	return c
}

func (c *echoFoobar) row(r bench.Row) error { return r.Scan(c.dest...) }

// checkEchoes checks, after the clock, the last row each client read: its
// own index and 'foobar'. A client that ran no operation (more goroutines
// than operations) read none; a run in which no client read a row fails.
func checkEchoes(clients []*echoFoobar) error {
	read := false
	for _, c := range clients {
		if c == nil || c.id == ^c.arg && c.str == "" {
			continue
		}
		read = true
		if c.id != c.arg || c.str != "foobar" {
			return fmt.Errorf("client %d read the row (%d, %q), want (%d, \"foobar\")", c.arg, c.id, c.str, c.arg)
		}
	}
	if !read {
		return errors.New("no client read a row")
	}
	return nil
}
