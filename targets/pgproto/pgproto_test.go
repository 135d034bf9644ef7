package pgproto_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/servertest"
	_ "github.com/sqlbench/sqlbench/targets/pgproto"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

var srv *servers.Server

func TestMain(m *testing.M) { os.Exit(servertest.Main(m, servers.KindPostgres, &srv)) }

// TestConformance runs the shared checks on pgproto (the workloads it
// runs, a corrupted row detected, a wrong password refused) on a throwaway
// server.
func TestConformance(t *testing.T) { servertest.Conformance(t, "pgproto", srv) }

// TestOneStatementPerCall: n operations of SimpleQueryRow (a Query
// message each), AutoQueryRow (Parse, Bind, Execute, Sync) and
// PreparedQueryRow (Bind, Execute, Sync) are n statements on the server,
// each one scan of the cell's table (pg_stat_user_tables, its sequential
// and index scans: the statistics of the measured backend, flushed with
// pg_stat_force_next_flush), and a prepared run leaves no statement
// prepared on the connection.
func TestOneStatementPerCall(t *testing.T) {
	const n = 300
	where := servertest.Where(t, srv, bench.Postgres, "tcp")
	stats, _ := targettest.Open(t, "pgproto", where)
	for _, id := range []string{"SimpleQueryRow", "AutoQueryRow", "PreparedQueryRow"} {
		t.Run(id, func(t *testing.T) {
			w, _ := bench.LookupWorkload(id)
			e := targettest.NewEnv(t, "pgproto", where)
			if err := w.Setup(e); err != nil {
				t.Fatal(err)
			}
			defer w.Teardown(e)
			table := e.Dialect.Table("test")
			scans := func() int64 {
				t.Helper()
				if err := e.Conn.Exec("SELECT pg_stat_force_next_flush()"); err != nil {
					t.Fatal(err)
				}
				var v int64
				q := "SELECT seq_scan + COALESCE(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = '" + table + "'"
				if err := stats.QueryRow(q, func(r bench.Row) error { return r.Scan(&v) }); err != nil {
					t.Fatal(err)
				}
				return v
			}
			e.N = n
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			before := scans()
			_, err = bench.Measure(r, 0, n, bench.NewLatencyHistogram())
			if r.End != nil {
				if eerr := r.End(); err == nil {
					err = eerr
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := scans() - before; got != n {
				t.Errorf("%d %s operations scanned the table %d times on the server, want %d", n, id, got, n)
			}
			var left int64
			q := "SELECT count(*) FROM pg_prepared_statements"
			if err := e.Conn.QueryRow(q, func(r bench.Row) error { return r.Scan(&left) }); err != nil || left != 0 {
				t.Errorf("%d statements left prepared, %v", left, err)
			}
		})
	}
}

// TestValueChecked: a row whose value differs from the one asked for fails
// the workload (the check reads what the server sent), and a value the
// conversion cannot read is an error, not a zero.
func TestValueChecked(t *testing.T) {
	where := servertest.Where(t, srv, bench.Postgres, "tcp")
	c, _ := targettest.Open(t, "pgproto", where)
	var n int64
	var s string
	err := c.QueryRow("SELECT 41, 'Test'", func(r bench.Row) error { return r.Scan(&n, &s) })
	if err != nil || n != 41 || s != "Test" {
		t.Fatalf("SELECT 41, 'Test' read %d, %q, %v", n, s, err)
	}
	err = c.QueryRow("SELECT 'x41'", func(r bench.Row) error { return r.Scan(&n) })
	if err == nil || !strings.Contains(err.Error(), "x41") {
		t.Errorf("a text value scanned into an int64: %v", err)
	}
	if err := c.QueryRow("SELECT 1 WHERE false", func(bench.Row) error { return nil }); err != bench.ErrNoRows {
		t.Errorf("no row: %v, want bench.ErrNoRows", err)
	}
	// The server's error, then the connection still answers.
	err = c.Exec("SELECT * FROM no_such_table_here")
	if err == nil || !strings.Contains(err.Error(), "no_such_table_here") {
		t.Errorf("a query of a missing table: %v", err)
	}
	var rows []string
	err = c.Query("SELECT g FROM generate_series(1, 3) g", func(r bench.Row) error {
		var v int64
		err := r.Scan(&v)
		rows = append(rows, fmt.Sprint(v))
		return err
	})
	if err != nil || strings.Join(rows, ",") != "1,2,3" {
		t.Errorf("after an error, three rows read %v, %v", rows, err)
	}
	err = c.QueryRow("SELECT $1::int + 1, $2", func(r bench.Row) error { return r.Scan(&n, &s) }, int64(41), "x")
	if err != nil || n != 42 || s != "x" {
		t.Errorf("SELECT $1::int + 1, $2 with 41, x read %d, %q, %v", n, s, err)
	}
	if err := c.Exec("SELECT 1", 1.5); err == nil || !strings.Contains(err.Error(), "float64") {
		t.Errorf("a float64 argument: %v", err)
	}
}
