package mysql_test

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/runner"
	"github.com/sqlbench/sqlbench/internal/servertest"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestConcurrentPoolLivesForTheCell runs five runs of one
// PreparedQueryConcurrent/conns=4 cell through the runner protocol, as a
// session does, and reads the server's counters: the published program
// keeps one *sql.DB for its whole run, so the cell opens at most 4
// connections in all (a pool per run would open at least one more per
// run), executes the prepared statement once per operation and prepares it
// at most once per connection per run.
func TestConcurrentPoolLivesForTheCell(t *testing.T) {
	where := servertest.Where(t, srv, bench.MariaDB, "tcp")
	cfg := where(t)
	c, _ := targettest.Open(t, "mysql", where)
	status := func() map[string]int64 {
		m := comStmt(t, c)
		for k, v := range globalStatus(t, c, "Connections") {
			m[k] = v
		}
		return m
	}
	const runs, n, conns = 5, 400, 4
	var in []string
	for range runs {
		in = append(in, protocol.Request{Verb: protocol.VerbRun, Target: "mysql",
			Workload: "PreparedQueryConcurrent/conns=4", DB: "mariadb",
			Scope: "pool", Name: "PreparedQueryConcurrent/db=mariadb/driver=go-sql-driver/api=sql/conns=4", N: n,
			Location: protocol.Location{Endpoint: cfg.Server}}.Encode())
	}
	in = append(in, protocol.Request{Verb: protocol.VerbClose, Target: "mysql", Scope: "pool"}.Encode())
	before := status()
	var out, log bytes.Buffer
	s := &runner.Loop{In: strings.NewReader(strings.Join(in, "\n")), Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if ok, fail := protocol.ParseStatus(line); ok && fail != "" {
			t.Fatalf("request failed: %s\n%s", fail, log.String())
		}
	}
	after := status()
	d := func(k string) int64 { return after[k] - before[k] }
	if got := d("Connections"); got > conns {
		t.Errorf("%d runs opened %d connections, want at most %d: the pool must live for the cell", runs, got, conns)
	}
	if got := d("Com_stmt_execute"); got != runs*n {
		t.Errorf("%d executions for %d operations, want one each", got, runs*n)
	}
	if got := d("Com_stmt_prepare"); got < runs || got > runs*conns {
		t.Errorf("%d prepares over %d runs, want one per connection used per run (%d to %d)", got, runs, runs,
			runs*conns)
	}
}

// globalStatus reads the server's status variables named like pattern.
func globalStatus(t *testing.T, c bench.Conn, pattern string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	err := c.Query("SHOW GLOBAL STATUS LIKE '"+pattern+"'", func(r bench.Row) error {
		var k string
		var v int64
		if err := r.Scan(&k, &v); err != nil {
			return err
		}
		out[k] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestConcurrentCallsAsPublished runs the one-goroutine cells of the
// sqlbench2 concurrent tests through the target on a real MariaDB and
// counts their calls: inside the clock one prepare, one call per operation
// and one close, rows scanned into an int and a string as the published
// program's goroutine scans them (`Scan(&id, &str)` in benchmarks.go at
// 92fab24), and no call before or after the clock (the row check of
// PreparedQueryConcurrent reads what the clients kept).
func TestConcurrentCallsAsPublished(t *testing.T) {
	where := servertest.Where(t, srv, bench.MariaDB, "tcp")
	const n = 300
	for id, want := range map[string]targettest.ClockedCalls{
		"PreparedExecConcurrent/conns=1": {Calls: map[string]int{"Prepare": 1, "Stmt.Exec": n, "Stmt.Close": 1}},
		"PreparedQueryConcurrent/conns=1": {Calls: map[string]int{"Prepare": 1, "Stmt.QueryRow": n, "Stmt.Close": 1},
			Dests: []string{"*int *string"}},
	} {
		t.Run(id, func(t *testing.T) {
			w, ok := bench.LookupWorkload(id)
			if !ok {
				t.Fatalf("%s not registered", id)
			}
			rc := targettest.CountRun(t, "mysql", where, w, n)
			if len(rc.Begin) != 0 || len(rc.End) != 0 {
				t.Errorf("calls outside the clock: %v before, %v after; the published program makes none", rc.Begin,
					rc.End)
			}
			if !maps.Equal(rc.Clock.Calls, want.Calls) {
				t.Errorf("calls inside the clock %v, the published program's %v", rc.Clock.Calls, want.Calls)
			}
			if !slices.Equal(rc.Clock.Dests, want.Dests) {
				t.Errorf("rows scanned into %q, the published program's into %q", rc.Clock.Dests, want.Dests)
			}
		})
	}
}
