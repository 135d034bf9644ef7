package mysql_test

import (
	"maps"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servertest"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// batchCounters are the server's counters TestBatchRoundTrips reads.
var batchCounters = []string{"Com_insert", "Com_select", "Com_stmt_execute", "Com_stmt_prepare", "Questions"}

// TestBatchRoundTrips: n operations of batch statements on go-sql-driver
// are n×batch statements of their kind on the server on both paths
// (Com_insert, Com_select: the server's global counters), sent as one
// binary-protocol execution each on path=each (Com_stmt_execute, one round
// trip each) and as one text per batch on path=multistmt (no execution,
// no prepare: Questions counts each statement of a multi-statement text,
// so the round trips are counted in the general log: one Execute command
// per statement on path=each, one Query command per batch on
// path=multistmt). The reading connection's own SHOW adds one question.
func TestBatchRoundTrips(t *testing.T) {
	const n, size = 20, 50
	where := servertest.Where(t, srv, bench.MariaDB, "tcp")
	stats, _ := targettest.Open(t, "mysql", where)
	read := func() map[string]int64 {
		t.Helper()
		return targettest.GlobalStatus(t, stats, batchCounters)
	}
	// The general log, into mysql.general_log for the test: one row per
	// command the server received (a round trip), whatever it holds. Only
	// root may switch it on: through the throwaway server's socket.
	if srv == nil || srv.Socket == "" {
		t.Skip("the general log needs the throwaway server's root account")
	}
	cfg := where(t)
	cfg.Server = bench.Endpoint{Net: "unix", Addr: srv.Socket, User: "root", Database: cfg.Server.Database}
	admin, _ := targettest.Open(t, "mysql", func(testing.TB) bench.Config { return cfg })
	for _, q := range []string{"SET GLOBAL log_output = 'TABLE'", "SET GLOBAL general_log = 1"} {
		if err := admin.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { admin.Exec("SET GLOBAL general_log = 0") })
	commands := func(table string) map[string]int64 {
		t.Helper()
		out := map[string]int64{}
		q := "SELECT command_type, COUNT(*) FROM mysql.general_log WHERE argument LIKE '%" + table +
			"%' GROUP BY command_type"
		err := admin.Query(q, func(r bench.Row) error {
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
	for _, op := range []string{"insert", "select"} {
		for _, path := range []string{"each", "multistmt"} {
			id := "Batch/op=" + op + "/path=" + path
			t.Run(id, func(t *testing.T) {
				w, ok := bench.LookupWorkload(id)
				if !ok {
					t.Fatalf("%s not registered", id)
				}
				e := targettest.NewEnv(t, "mysql", where)
				if err := w.Setup(e); err != nil {
					t.Fatal(err)
				}
				defer w.Teardown(e)
				e.Warm, e.N = 2, n
				r, err := w.Begin(e)
				if err != nil {
					t.Fatal(err)
				}
				if err := bench.Warm(r, 2); err != nil {
					t.Fatal(err)
				}
				if err := admin.Exec("TRUNCATE TABLE mysql.general_log"); err != nil {
					t.Fatal(err)
				}
				before := read()
				_, err = bench.Measure(r, 2, n, bench.NewLatencyHistogram())
				after := read()
				table := e.Dialect.Table("batchins")
				if op == "select" {
					table = e.Dialect.Table("batchsel")
				}
				logged := commands(table)
				if eerr := r.End(); err == nil {
					err = eerr
				}
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]int64{}
				for k, v := range after {
					if d := v - before[k]; d != 0 {
						got[k] = d
					}
				}
				t.Logf("%d operations of %d statements: the server counted %v; its general log %v", n, size, got,
					logged)
				want := map[string]int64{"Com_" + op: n * size, "Questions": n*size + 1}
				// The log's own reading names the table too: one Query more.
				wantLogged := map[string]int64{"Query": n + 1}
				if path == "each" {
					want["Com_stmt_execute"] = n * size
					wantLogged = map[string]int64{"Execute": n * size, "Query": 1}
				}
				if !maps.Equal(got, want) {
					t.Errorf("the server counted %v, want %v", got, want)
				}
				if !maps.Equal(logged, wantLogged) {
					t.Errorf("the general log holds %v commands of the run, want %v", logged, wantLogged)
				}
			})
		}
	}
}

// TestBatchValuesChecked: on both paths, a selected value that differs
// from the one written fails the run, and so do an inserted row the
// server lost and one whose value changed.
func TestBatchValuesChecked(t *testing.T) {
	where := servertest.Where(t, srv, bench.MariaDB, "tcp")
	for _, path := range []string{"each", "multistmt"} {
		t.Run(path, func(t *testing.T) { targettest.BatchValuesChecked(t, "mysql", where, path) })
	}
}

// TestMultiStatementsOnlyOnTheBatch: the cell's own connection refuses a
// multi-statement text (the DSN option is the batch path's alone).
func TestMultiStatementsOnlyOnTheBatch(t *testing.T) {
	c, _ := targettest.Open(t, "mysql", servertest.Where(t, srv, bench.MariaDB, "tcp"))
	if err := c.Exec("DO 1; DO 2"); err == nil {
		t.Error("the cell's connection ran a multi-statement text")
	}
}
