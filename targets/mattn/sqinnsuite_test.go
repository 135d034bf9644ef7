package mattn_test

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestSqinnSuiteCallsAsPublished checks the Sqinn-Go suite's database/sql
// calls on mattn against the published mattn program's
// (cvilsmeier/sqinn-go-bench, cmd/bench-mattn/mattn.go): an insert begins a
// transaction per table, prepares one statement in it, executes it once
// per row, closes it and commits; a read is one db.Query whose rows scan
// into sql.NullInt32, sql.NullString and sql.NullFloat64. The calls are
// counted where sqlbench's database/sql adapter makes them, one bench call
// for one database/sql call.
func TestSqinnSuiteCallsAsPublished(t *testing.T) {
	const n = 50
	users := "*sql.NullInt32 *sql.NullString *sql.NullInt32 *sql.NullFloat64"
	cars := "*sql.NullInt32 *sql.NullString *sql.NullString"
	named := "*sql.NullInt32 *sql.NullString"
	join := "*sql.NullString *sql.NullString *sql.NullString *sql.NullInt32 *sql.NullString *sql.NullString " +
		"*sql.NullString *sql.NullInt32 *sql.NullString *sql.NullString *sql.NullInt32"
	for _, w := range bench.Workloads() {
		if w.Family != "sqinn" {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			e := targettest.NewEnv(t, "mattn", targettest.SQLite)
			if err := w.Setup(e); err != nil {
				t.Fatal(err)
			}
			defer w.Teardown(e)
			c := &calls{n: map[string]int{}, dests: map[string]bool{}}
			e.Conn = countConn{e.Conn, c}
			open := e.Open
			e.Open = func(ctx context.Context, pool int) (bench.Conn, error) {
				cc, err := open(ctx, pool)
				if err != nil {
					return nil, err
				}
				return countConn{cc, c}, nil
			}
			e.Warm, e.N = 0, n
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			c.reset() // what Begin did runs before the clock
			_, err = bench.Measure(r, 0, n, bench.NewLatencyHistogram())
			got, dests := c.snapshot()
			if r.End != nil {
				if eerr := r.End(); err == nil {
					err = eerr
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]int
			var wantDests string
			switch w.Name {
			case "SqinnSimpleInsert":
				want = map[string]int{"Stmt.Exec": n, "Stmt.Close": 1, "Tx.Commit": 1}
			case "SqinnComplexInsert": // 50 locations: 1 profile, 5 devices
				want = map[string]int{"BeginTx": 3, "Tx.Prepare": 3, "Stmt.Exec": 1 + 5 + n, "Stmt.Close": 3, "Tx.Commit": 3}
			case "SqinnConcurrent":
				var g int
				fmt.Sscanf(w.Keys, "goroutines=%d", &g)
				// One db.Query per goroutine's connection; its opening
				// (and the session's settings) is not counted.
				want = map[string]int{"Query": g * n}
				wantDests = named
			case "SqinnComplexQuery":
				want, wantDests = map[string]int{"Query": n}, join
			case "SqinnSimpleQuery":
				want, wantDests = map[string]int{"Query": n}, users
			case "SqinnMany":
				want, wantDests = map[string]int{"Query": n}, cars
			case "SqinnLarge":
				want, wantDests = map[string]int{"Query": n}, named
			default:
				t.Fatalf("no published call pattern for %s", w.ID())
			}
			if !maps.Equal(got, want) {
				t.Errorf("%d operations made %v, want %v", n, got, want)
			}
			if wantDests != "" && (len(dests) != 1 || !dests[wantDests]) {
				t.Errorf("rows scanned into %v, want %s", slicesOf(dests), wantDests)
			}
		})
	}
}

// calls counts bench calls by name, and the Scan destinations' types.
type calls struct {
	mu    sync.Mutex
	n     map[string]int
	dests map[string]bool
}

func (c *calls) add(name string) {
	c.mu.Lock()
	c.n[name]++
	c.mu.Unlock()
}

func (c *calls) reset() {
	c.mu.Lock()
	clear(c.n)
	clear(c.dests)
	c.mu.Unlock()
}

func (c *calls) snapshot() (map[string]int, map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.n), maps.Clone(c.dests)
}

// scanned records the types of one Scan's destinations.
func (c *calls) scanned(dest []any) {
	types := make([]string, len(dest))
	for i, d := range dest {
		types[i] = fmt.Sprintf("%T", d)
	}
	c.mu.Lock()
	c.dests[strings.Join(types, " ")] = true
	c.mu.Unlock()
}

func (c *calls) rows(fn bench.RowFunc) bench.RowFunc {
	return func(r bench.Row) error { return fn(countRow{r, c}) }
}

func slicesOf(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	return s
}

type countConn struct {
	bench.Conn
	c *calls
}

func (cc countConn) Exec(q string, args ...any) error {
	cc.c.add("Exec")
	return cc.Conn.Exec(q, args...)
}

func (cc countConn) Query(q string, fn bench.RowFunc, args ...any) error {
	cc.c.add("Query")
	return cc.Conn.Query(q, cc.c.rows(fn), args...)
}

func (cc countConn) QueryRow(q string, fn bench.RowFunc, args ...any) error {
	cc.c.add("QueryRow")
	return cc.Conn.QueryRow(q, cc.c.rows(fn), args...)
}

func (cc countConn) Prepare(q string) (bench.Stmt, error) {
	cc.c.add("Prepare")
	s, err := cc.Conn.Prepare(q)
	return countStmt{s, cc.c}, err
}

// BeginTx keeps the connection's own transactions (*sql.Tx).
func (cc countConn) BeginTx() (bench.Tx, error) {
	cc.c.add("BeginTx")
	tx, err := cc.Conn.(bench.Txer).BeginTx()
	return countTx{tx, cc.c}, err
}

type countTx struct {
	bench.Tx
	c *calls
}

func (t countTx) Exec(q string, args ...any) error {
	t.c.add("Tx.Exec")
	return t.Tx.Exec(q, args...)
}

func (t countTx) Prepare(q string) (bench.Stmt, error) {
	t.c.add("Tx.Prepare")
	s, err := t.Tx.Prepare(q)
	return countStmt{s, t.c}, err
}

func (t countTx) Commit() error {
	t.c.add("Tx.Commit")
	return t.Tx.Commit()
}

type countStmt struct {
	bench.Stmt
	c *calls
}

func (s countStmt) Exec(args ...any) error {
	s.c.add("Stmt.Exec")
	return s.Stmt.Exec(args...)
}

func (s countStmt) Query(fn bench.RowFunc, args ...any) error {
	s.c.add("Stmt.Query")
	return s.Stmt.Query(s.c.rows(fn), args...)
}

func (s countStmt) Close() error {
	s.c.add("Stmt.Close")
	return s.Stmt.Close()
}

type countRow struct {
	bench.Row
	c *calls
}

func (r countRow) Scan(dest ...any) error {
	r.c.scanned(dest)
	return r.Row.Scan(dest...)
}
