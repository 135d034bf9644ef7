package mysql_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servertest"
	"github.com/sqlbench/sqlbench/targets/targettest"
	_ "github.com/sqlbench/sqlbench/workloads" // registers SingleInsert
)

// TestSingleInsertAsPublished runs SingleInsert on MariaDB through
// go-sql-driver and checks it against the published benchmark
// (rah-0/hyperion 2a8026c, benchmarks/mariadb): the server's own counters
// must show one COM_STMT_PREPARE, COM_STMT_EXECUTE and COM_STMT_CLOSE per
// row with prepare=each (the published db.Prepare, stmt.Exec, stmt.Close)
// and one prepare and close per client with prepare=once; the table must
// have the published columns and types; FieldA must hold the published
// 34-byte literal (data=fixed) or a distinct random UUID per row
// (data=random).
func TestSingleInsertAsPublished(t *testing.T) {
	where := servertest.Where(t, srv, bench.MariaDB, "tcp")
	const n = 40
	uuidRE := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	for _, c := range []struct {
		id                      string
		clients                 int
		prepares, execs, closes int
		random                  bool
	}{
		{"SingleInsert/data=fixed/conns=1/prepare=each", 1, n, n, n, false},
		{"SingleInsert/data=random/conns=1/prepare=each", 1, n, n, n, true},
		{"SingleInsert/data=random/conns=2/prepare=each", 2, n, n, n, true},
		{"SingleInsert/data=fixed/conns=2/prepare=once", 2, 2, n, 2, false},
	} {
		t.Run(c.id, func(t *testing.T) {
			w, ok := bench.LookupWorkload(c.id)
			if !ok {
				t.Fatalf("workload %s not registered", c.id)
			}
			e := targettest.NewEnv(t, "mysql", where)
			if err := w.Setup(e); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { w.Teardown(e) })
			table := e.Dialect.Table("single")
			// Two runs, as a session makes: the second must find the first
			// run's rows still there (the table lives for the cell).
			for run := 1; run <= 2; run++ {
				before := comStmt(t, e.Conn)
				e.Warm, e.N = 0, n
				r, err := w.Begin(e)
				if err != nil {
					t.Fatal(err)
				}
				_, err = bench.Measure(r, 0, n, bench.NewLatencyHistogram())
				if eerr := r.End(); err == nil {
					err = eerr
				}
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]int64{"Com_stmt_prepare": int64(c.prepares), "Com_stmt_execute": int64(c.execs),
					"Com_stmt_close": int64(c.closes)}
				// COM_STMT_CLOSE has no reply: the server may count a
				// client's last one after its connection has gone, so the
				// counters are read until they match or a second passes.
				var after map[string]int64
				for try := 0; try < 50; try++ {
					if after = comStmt(t, e.Conn); deltasMatch(before, after, want) {
						break
					}
					time.Sleep(20 * time.Millisecond)
				}
				for k, v := range want {
					if got := after[k] - before[k]; got != v {
						t.Errorf("run %d: %s rose by %d over %d rows, want %d", run, k, got, n, v)
					}
				}
				var rows int64
				if err := e.Conn.QueryRow("SELECT COUNT(*) FROM "+table,
					func(r bench.Row) error { return r.Scan(&rows) }); err != nil {
					t.Fatal(err)
				}
				if rows != int64(run*n) {
					t.Errorf("after run %d the table holds %d rows, want %d", run, rows, run*n)
				}
			}
			if got := columns(t, e.Conn, table); got != "Id int(11) auto_increment, FirstInsert datetime(6), "+
				"LastUpdate datetime(6) on update current_timestamp(6), FieldA varchar(36)" {
				t.Errorf("columns: %s", got)
			}
			seen := map[string]bool{}
			err := e.Conn.Query("SELECT FieldA FROM "+table, func(r bench.Row) error {
				var v string
				if err := r.Scan(&v); err != nil {
					return err
				}
				switch {
				case c.random && !uuidRE.MatchString(v):
					t.Errorf("random FieldA %q is not a random UUID", v)
				case !c.random && v != "9xKf3QpLm2Ry7UbHt6NwEjVg8As5OcIy4B":
					t.Errorf("fixed FieldA %q is not the published literal", v)
				}
				seen[v] = true
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if c.random && len(seen) != 2*n {
				t.Errorf("%d distinct random values in %d rows", len(seen), 2*n)
			}
		})
	}
}

// deltasMatch reports whether every counter in want rose by its value from
// before to after.
func deltasMatch(before, after, want map[string]int64) bool {
	for k, v := range want {
		if after[k]-before[k] != v {
			return false
		}
	}
	return true
}

// comStmt reads the server's prepared-statement counters.
func comStmt(t *testing.T, c bench.Conn) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	err := c.Query("SHOW GLOBAL STATUS LIKE 'Com_stmt%'", func(r bench.Row) error {
		var k, v string
		if err := r.Scan(&k, &v); err != nil {
			return err
		}
		n, err := strconv.ParseInt(v, 10, 64)
		out[k] = n
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// columns describes table's columns as "name type extra", in order.
func columns(t *testing.T, c bench.Conn, table string) string {
	t.Helper()
	var cols []string
	err := c.Query("SELECT COLUMN_NAME, COLUMN_TYPE, EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = "+
		"DATABASE() AND TABLE_NAME = '"+table+"' ORDER BY ORDINAL_POSITION",
		func(r bench.Row) error {
			var name, typ, extra string
			if err := r.Scan(&name, &typ, &extra); err != nil {
				return err
			}
			cols = append(cols, strings.TrimSpace(name+" "+typ+" "+strings.ToLower(extra)))
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(cols, ", ")
}
