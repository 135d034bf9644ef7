package targettest

import (
	"maps"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// typedServerOps is how many operations TypedOnTheServer measures.
const typedServerOps = 20

// mariaDBCounters are the statement counters TypedOnTheServer reads on
// MariaDB (SHOW GLOBAL STATUS): the text-protocol statements by kind and
// the binary protocol's.
var mariaDBCounters = []string{"Com_select", "Com_insert", "Com_begin", "Com_commit", "Com_rollback",
	"Com_set_option", "Com_do", "Com_stmt_prepare", "Com_stmt_execute", "Com_stmt_close", "Com_stmt_reset"}

// TypedOnTheServer counts the typed family's statements on the server at
// where (a MariaDB or PostgreSQL one), as the server counts them, and
// holds each workload of the family to what docs/typed-rows.md says it
// sends, after a warm-up of 2 operations (its own transaction for the
// inserts):
//
//   - a query run of n operations: one unprepared statement an operation.
//     MariaDB: n Com_select and no other statement (no Com_stmt_*: the
//     text protocol). PostgreSQL: n scans of the table
//     (pg_stat_user_tables' seq_scan + idx_scan) and n transactions
//     (pg_stat_database's xact_commit: one per Sync of the extended
//     protocol or per simple query: one round trip each, in autocommit),
//     a few more for the counters' own reads.
//   - an insert run of n rows: one transaction, one statement prepared, n
//     executions. MariaDB: one Com_begin, one Com_stmt_prepare, n
//     Com_stmt_execute and n Com_insert, one Com_stmt_close and one
//     Com_commit. PostgreSQL: n rows inserted (n_tup_ins) and one
//     transaction (xact_commit), a few more for the counters' own reads:
//     an autocommitted insert a row would be n.
//
// The measured connection's last statement is followed by one that waits
// for its reply (DO 0 on MariaDB, whose COM_STMT_CLOSE gets none; on
// PostgreSQL pg_stat_force_next_flush(), which also makes its backend's
// counts visible), counted as such.
func TypedOnTheServer(t *testing.T, target string, where Where) {
	for _, w := range bench.Workloads() {
		if w.Family != "typed" {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			skipUnless(t, target, where, w)
			switch db := where(t).DB; db {
			case bench.MariaDB:
				typedOnMariaDB(t, target, where, w)
			case bench.Postgres:
				typedOnPostgres(t, target, where, w)
			default:
				t.Skipf("no server statement counters on %s", db)
			}
		})
	}
}

// typedInsert reports whether w is one of the family's inserts.
func typedInsert(w bench.Workload) bool { return strings.HasSuffix(w.Name, "Insert") }

// measureTyped sets w up on e, warms it up with 2 operations, reads the
// counters, measures n operations, runs sync on e's connection and reads
// the counters again; the run's End (its read-back check) runs after.
func measureTyped[C any](t *testing.T, e bench.Env, w bench.Workload, n int, sync string, read func() C) (C, C) {
	t.Helper()
	if err := w.Setup(e); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Teardown(e) })
	e.Warm, e.N = 2, n
	r, err := w.Begin(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := bench.Warm(r, 2); err != nil {
		t.Fatal(err)
	}
	before := read()
	_, err = bench.Measure(r, 2, n, bench.NewLatencyHistogram())
	if err == nil {
		err = e.Conn.Exec(sync)
	}
	after := read()
	if r.End != nil {
		if eerr := r.End(); err == nil {
			err = eerr
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return before, after
}

func typedOnMariaDB(t *testing.T, target string, where Where, w bench.Workload) {
	const n = typedServerOps
	stats, _ := Open(t, target, where)
	read := func() map[string]int64 {
		t.Helper()
		return GlobalStatus(t, stats, mariaDBCounters)
	}
	e := NewEnv(t, target, where)
	before, after := measureTyped(t, e, w, n, "DO 0", read)
	got := map[string]int64{}
	for k, v := range after {
		if d := v - before[k]; d != 0 {
			got[k] = d
		}
	}
	// The reading SHOW is no Com_* of these; DO 0 is the sync.
	want := map[string]int64{"Com_select": n, "Com_do": 1}
	if typedInsert(w) {
		want = map[string]int64{"Com_begin": 1, "Com_stmt_prepare": 1, "Com_stmt_execute": n, "Com_insert": n,
			"Com_stmt_close": 1, "Com_commit": 1, "Com_do": 1}
	}
	t.Logf("%d operations: the server counted %v", n, got)
	if !maps.Equal(got, want) {
		t.Errorf("%d operations: the server counted %v, want %v", n, got, want)
	}
}

// pgCounts are the PostgreSQL counters of one table and its database.
type pgCounts struct{ xacts, scans, inserted int64 }

func typedOnPostgres(t *testing.T, target string, where Where, w bench.Workload) {
	const (
		n     = typedServerOps
		slack = 4 // the flush call and the reading connection's own transactions
	)
	stats, _ := Open(t, target, where)
	e := NewEnv(t, target, where)
	base := "typed"
	if strings.HasPrefix(w.Name, "TypedWide") {
		base = "typedwide"
	}
	table := e.Dialect.Table(base)
	const flush = "SELECT pg_stat_force_next_flush()"
	read := func() pgCounts {
		t.Helper()
		if err := e.Conn.Exec(flush); err != nil {
			t.Fatal(err)
		}
		var c pgCounts
		q := "SELECT d.xact_commit, COALESCE(t.seq_scan, 0) + COALESCE(t.idx_scan, 0), t.n_tup_ins " +
			"FROM pg_stat_database d, pg_stat_user_tables t WHERE d.datname = current_database() AND " +
			"t.relname = '" + table + "'"
		scan := func(r bench.Row) error { return r.Scan(&c.xacts, &c.scans, &c.inserted) }
		if err := stats.QueryRow(q, scan); err != nil {
			t.Fatal(err)
		}
		return c
	}
	b, a := measureTyped(t, e, w, n, flush, read)
	xacts, scans, ins := a.xacts-b.xacts, a.scans-b.scans, a.inserted-b.inserted
	t.Logf("%d operations: %d transactions, %d scans of %s, %d rows inserted", n, xacts, scans, table, ins)
	if typedInsert(w) {
		if ins != n || xacts < 1 || xacts > 1+slack {
			t.Errorf("%d rows: the server inserted %d in %d transactions, want %d in 1 (to %d with the counters' "+
				"own)", n, ins, xacts, n, 1+slack)
		}
		return
	}
	if scans != n || ins != 0 || xacts < n || xacts > n+slack {
		t.Errorf("%d queries: the server scanned %s %d times in %d transactions (%d rows inserted), want %d "+
			"scans in %d to %d", n, table, scans, xacts, ins, n, n, n+slack)
	}
}
