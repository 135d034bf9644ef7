package pgx_test

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servertest"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// batchPaths are the batch family's paths on pgx-native.
var batchPaths = []string{"each", "sendbatch", "pipeline"}

// TestBatchRoundTrips: n operations of batch statements are n×batch
// statements on the server on every path (pg_stat_user_tables: rows
// inserted, index scans), and the transactions the server counted
// (pg_stat_database's xact_commit: one per Sync, the end of a round trip
// of the extended protocol in autocommit) are one per statement for
// path=each and one per batch for the batched paths. The measured
// backend's statistics are flushed with pg_stat_force_next_flush; the
// reading connection's own transactions may add a few. The run leaves no
// statement of its own prepared.
func TestBatchRoundTrips(t *testing.T) {
	const (
		n, size = 20, 50
		slack   = 4 // the flush call and the reading connection's own transactions
	)
	where := servertest.Where(t, srv, bench.Postgres, "tcp")
	stats, _ := targettest.Open(t, "pgx-native", where)
	for _, op := range []string{"insert", "select"} {
		for _, path := range batchPaths {
			id := "Batch/op=" + op + "/path=" + path
			t.Run(id, func(t *testing.T) {
				w, ok := bench.LookupWorkload(id)
				if !ok {
					t.Fatalf("%s not registered", id)
				}
				e := targettest.NewEnv(t, "pgx-native", where)
				base := "batchins"
				if op == "select" {
					base = "batchsel"
				}
				table := e.Dialect.Table(base)
				read := func() (xacts, rows, scans int64) {
					t.Helper()
					if err := e.Conn.Exec("SELECT pg_stat_force_next_flush()"); err != nil {
						t.Fatal(err)
					}
					q := "SELECT d.xact_commit, t.n_tup_ins, COALESCE(t.idx_scan, 0) FROM pg_stat_database d, " +
						"pg_stat_user_tables t WHERE d.datname = current_database() AND t.relname = '" + table + "'"
					if err := stats.QueryRow(q,
						func(r bench.Row) error { return r.Scan(&xacts, &rows, &scans) }); err != nil {
						t.Fatal(err)
					}
					return
				}
				x0, r0, s0, x1, r1, s1 := measureBatch(t, e, w, n, read)
				xacts, rows, scans := x1-x0, r1-r0, s1-s0
				t.Logf("%d operations of %d statements: %d transactions, %d rows inserted, %d index scans",
					n, size, xacts, rows, scans)
				stmts := scans
				if op == "insert" {
					stmts = rows
				}
				if stmts != n*size {
					t.Errorf("the server ran %d statements, want %d", stmts, n*size)
				}
				var left int64
				q := "SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'sqlbench%'"
				if err := e.Conn.QueryRow(q, func(r bench.Row) error { return r.Scan(&left) }); err != nil ||
					left != 0 {
					t.Errorf("%d statements of the run left prepared, %v", left, err)
				}
				if path == "each" && xacts < n*size {
					t.Errorf("path=each: %d transactions (round trips), want at least %d", xacts, n*size)
				}
				if path != "each" && (xacts < n || xacts > n+slack) {
					t.Errorf("path=%s: %d transactions (round trips), want %d to %d", path, xacts, n, n+slack)
				}
			})
		}
	}
}

// measureBatch sets w up, begins a run of n operations after a warm-up of
// 2, and measures it between two reads of the server's counters; the run
// ends (and checks what it wrote) before it returns.
func measureBatch(t *testing.T, e bench.Env, w bench.Workload, n int64,
	read func() (int64, int64, int64)) (x0, r0, s0, x1, r1, s1 int64) {
	t.Helper()
	if err := w.Setup(e); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Teardown(e) })
	e.Warm, e.N = 2, int(n)
	r, err := w.Begin(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := bench.Warm(r, 2); err != nil {
		t.Fatal(err)
	}
	x0, r0, s0 = read()
	_, err = bench.Measure(r, 2, int(n), bench.NewLatencyHistogram())
	x1, r1, s1 = read()
	if eerr := r.End(); err == nil {
		err = eerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return
}

// TestBatchValuesChecked: on every path, a selected value that differs
// from the one written fails the run, and so do an inserted row the
// server lost and one whose value changed.
func TestBatchValuesChecked(t *testing.T) {
	where := servertest.Where(t, srv, bench.Postgres, "tcp")
	for _, path := range batchPaths {
		t.Run(path, func(t *testing.T) {
			targettest.BatchValuesChecked(t, "pgx-native", where, path)
		})
	}
}

// TestBatchPathsPlanned: pgx-native has the batched paths, pgx (through
// database/sql, which has no batch) only the baseline.
func TestBatchPathsPlanned(t *testing.T) {
	e := targettest.NewEnv(t, "pgx", servertest.Where(t, srv, bench.Postgres, "tcp"))
	if _, ok := e.Conn.(bench.Batcher); ok {
		t.Error("pgx through database/sql implements bench.Batcher")
	}
	e = targettest.NewEnv(t, "pgx-native", servertest.Where(t, srv, bench.Postgres, "tcp"))
	b, ok := e.Conn.(bench.Batcher)
	if !ok {
		t.Fatal("pgx-native does not implement bench.Batcher")
	}
	if _, err := b.Batch("multistmt", "SELECT 1"); err == nil || !strings.Contains(err.Error(), "multistmt") {
		t.Errorf("an unknown path: %v", err)
	}
}
