package mysqlproto_test

import (
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/servertest"
	_ "github.com/sqlbench/sqlbench/targets/mysqlproto"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

var srv *servers.Server

func TestMain(m *testing.M) { os.Exit(servertest.Main(m, servers.KindMariaDB, &srv)) }

// TestConformance runs the shared checks on mysqlproto (the workloads it
// runs, a corrupted row detected, a wrong password refused) on a
// throwaway server.
func TestConformance(t *testing.T) { servertest.Conformance(t, "mysqlproto", srv) }

// counters are the server's statement counters TestOneStatementPerCall
// reads: text-protocol statements by kind, binary-protocol ones, and every
// statement a client sent.
var counters = []string{"Com_select", "Com_set_option", "Com_do", "Com_stmt_prepare", "Com_stmt_execute",
	"Com_stmt_close", "Questions"}

// TestOneStatementPerCall: n operations of each workload mysqlproto runs
// are n statements of their kind on the server and nothing else: the
// unprepared ones n text-protocol statements, the prepared ones n
// COM_STMT_EXECUTE and a COM_STMT_PREPARE and COM_STMT_CLOSE per
// statement prepared (Com_* and Questions, the server's global counters;
// the reading connection's own SHOW adds one question).
func TestOneStatementPerCall(t *testing.T) {
	const n = 300
	where := servertest.Where(t, srv, bench.MariaDB, "tcp")
	stats, _ := targettest.Open(t, "mysqlproto", where)
	read := func() map[string]int64 {
		t.Helper()
		return targettest.GlobalStatus(t, stats, counters)
	}
	for id, want := range map[string]map[string]int64{
		"SimpleQueryRow": {"Com_select": n, "Questions": n + 1},
		"SimpleQuery":    {"Com_select": n, "Questions": n + 1},
		"SimpleExec":     {"Com_set_option": n, "Questions": n + 1},
		"SimpleDo":       {"Com_do": n, "Questions": n + 1},
		// Prepared: one COM_STMT_EXECUTE per operation, counted also as
		// its statement's kind; a prepare and a close per statement (one,
		// or one per pass of 100 rows in PreparedQueryRow); and the DO 0
		// that makes sure the last close (which gets no reply) was read.
		"PreparedQuery": {"Com_select": n, "Com_stmt_execute": n, "Com_stmt_prepare": 1, "Com_stmt_close": 1,
			"Com_do": 1, "Questions": n + 2},
		"PreparedQueryRow": {"Com_select": n, "Com_stmt_execute": n, "Com_stmt_prepare": n / 100,
			"Com_stmt_close": n / 100, "Com_do": 1, "Questions": n + 2},
		"PreparedExec": {"Com_set_option": n, "Com_stmt_execute": n, "Com_stmt_prepare": 1, "Com_stmt_close": 1,
			"Com_do": 1, "Questions": n + 2},
		"PreparedDo": {"Com_do": n + 1, "Com_stmt_execute": n, "Com_stmt_prepare": 1, "Com_stmt_close": 1,
			"Questions": n + 2},
	} {
		t.Run(id, func(t *testing.T) {
			w, _ := bench.LookupWorkload(id)
			e := targettest.NewEnv(t, "mysqlproto", where)
			if err := w.Setup(e); err != nil {
				t.Fatal(err)
			}
			defer w.Teardown(e)
			e.N = n
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			before := read()
			if _, err := bench.Measure(r, 0, n, bench.NewLatencyHistogram()); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(id, "Prepared") {
				// COM_STMT_CLOSE has no reply: a statement answered
				// after it on the same connection says it was read.
				if err := e.Conn.Exec("DO 0"); err != nil {
					t.Fatal(err)
				}
			}
			after := read()
			got := map[string]int64{}
			for k, v := range after {
				if d := v - before[k]; d != 0 {
					got[k] = d
				}
			}
			if !maps.Equal(got, want) {
				t.Errorf("%d operations: the server counted %v, want %v", n, got, want)
			}
		})
	}
}

// TestValueChecked: a value the conversion cannot read is an error, not a
// zero; NULL reaches an *any as nil; a server error leaves the connection
// answering.
func TestValueChecked(t *testing.T) {
	where := servertest.Where(t, srv, bench.MariaDB, "tcp")
	c, _ := targettest.Open(t, "mysqlproto", where)
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
	var v any = "set"
	if err := c.QueryRow("SELECT NULL", func(r bench.Row) error { return r.Scan(&v) }); err != nil || v != nil {
		t.Errorf("SELECT NULL read %v, %v", v, err)
	}
	err = c.QueryRow("SELECT 1 FROM DUAL WHERE 1 = 0", func(bench.Row) error { return nil })
	if err != bench.ErrNoRows {
		t.Errorf("no row: %v, want bench.ErrNoRows", err)
	}
	err = c.Exec("SELECT * FROM no_such_table_here")
	if err == nil || !strings.Contains(err.Error(), "no_such_table_here") {
		t.Errorf("a query of a missing table: %v", err)
	}
	var rows []string
	err = c.Query("SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3", func(r bench.Row) error {
		var v int64
		err := r.Scan(&v)
		rows = append(rows, fmt.Sprint(v))
		return err
	})
	if err != nil || strings.Join(rows, ",") != "1,2,3" {
		t.Errorf("after an error, three rows read %v, %v", rows, err)
	}
	if err := c.Exec("SELECT 1", 1); err == nil {
		t.Error("an argument was accepted")
	}
}

// TestPreparedValueChecked: the prepared path's binary values reach the
// row as the text path's do (an integer, a string, NULL), with its
// argument bound; no row is bench.ErrNoRows; a server error leaves the
// statement and the connection answering.
func TestPreparedValueChecked(t *testing.T) {
	where := servertest.Where(t, srv, bench.MariaDB, "tcp")
	c, _ := targettest.Open(t, "mysqlproto", where)
	s, err := c.Prepare("SELECT ? + 1, CONCAT('T', ?), NULL FROM DUAL WHERE ? > 0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int64
	var str string
	var v any = "set"
	err = s.QueryRow(func(r bench.Row) error { return r.Scan(&n, &str, &v) }, int64(41), "est", int64(1))
	if err != nil || n != 42 || str != "Test" || v != nil {
		t.Fatalf("prepared read %d, %q, %v, %v; want 42, Test, nil", n, str, v, err)
	}
	err = s.QueryRow(func(r bench.Row) error { return r.Scan(&n, &str, &v) }, int64(1), "x", int64(0))
	if err != bench.ErrNoRows {
		t.Errorf("no row: %v, want bench.ErrNoRows", err)
	}
	if err := s.Exec(); err == nil {
		t.Error("a statement of three parameters ran with none")
	}
	if _, err := c.Prepare("SELECT * FROM no_such_table_here"); err == nil ||
		!strings.Contains(err.Error(), "no_such_table_here") {
		t.Errorf("prepare of a missing table: %v", err)
	}
	var rows []string
	u, err := c.Prepare("SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT ?")
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	err = u.Query(func(r bench.Row) error {
		var v int64
		err := r.Scan(&v)
		rows = append(rows, fmt.Sprint(v))
		return err
	}, int64(3))
	if err != nil || strings.Join(rows, ",") != "1,2,3" {
		t.Errorf("after the errors, three rows read %v, %v", rows, err)
	}
}
