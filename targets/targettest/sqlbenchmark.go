package targettest

import (
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// published is what the SQL-Benchmark programs do for n operations of one
// workload, through database/sql, on the classic table named table: the
// calls of go-sql-driver/sql-benchmark's sqlBenchmark.go (commit ddf95e5,
// the program of the 2013-03 results) and benchmarks.go (HEAD, the second
// generation), written out again for the test.
type published struct {
	// run makes the program's calls.
	run func(db *sql.DB, table string, n int) error
	// calls is the database/sql calls that makes, as bench calls.
	calls func(n int) map[string]int
	// dests is the types the program scans a row into.
	dests string
}

// sqlBenchmarkPrograms returns the published calls of every workload of
// the classic and sqlbench2 families that runs on one connection.
func sqlBenchmarkPrograms() map[string]published {
	query := func(q func(table string, i int) string, args func(i int) []any) func(*sql.DB, string, int) error {
		return func(db *sql.DB, table string, n int) error {
			for i := range n {
				rows, err := db.Query(q(table, i), args(i)...)
				if err != nil {
					return err
				}
				if err := drain(rows); err != nil {
					return err
				}
			}
			return nil
		}
	}
	queryRow := func(q func(table string, i int) string, args func(i int) []any,
		dest func() []any) func(*sql.DB, string, int) error {
		return func(db *sql.DB, table string, n int) error {
			d := dest()
			for i := range n {
				if err := db.QueryRow(q(table, i), args(i)...).Scan(d...); err != nil {
					return err
				}
			}
			return nil
		}
	}
	// prepared prepares q once and runs op n times on it, or with every >
	// 0 prepares it again every `every` operations (PreparedQueryRow).
	prepared := func(q func(table string) string, every int,
		op func(s *sql.Stmt, i int) error) func(*sql.DB, string, int) error {
		return func(db *sql.DB, table string, n int) error {
			var s *sql.Stmt
			for i := range n {
				if s == nil || every > 0 && i%every == 0 {
					if s != nil {
						if err := s.Close(); err != nil {
							return err
						}
					}
					var err error
					if s, err = db.Prepare(q(table)); err != nil {
						return err
					}
				}
				if err := op(s, i); err != nil {
					return err
				}
			}
			if s == nil {
				return nil
			}
			return s.Close()
		}
	}
	exec := func(q string) func(*sql.DB, string, int) error {
		return func(db *sql.DB, _ string, n int) error {
			for range n {
				if _, err := db.Exec(q); err != nil {
					return err
				}
			}
			return nil
		}
	}
	text := func(q string) func(string) string { return func(string) string { return q } }
	none := func(int) []any { return nil }
	per := func(calls ...string) func(n int) map[string]int {
		return func(n int) map[string]int {
			m := map[string]int{}
			for _, c := range calls {
				name, times, _ := strings.Cut(c, "=")
				switch times {
				case "1":
					m[name] = 1
				case "n/100":
					m[name] = n / 100
				default:
					m[name] = n
				}
			}
			return m
		}
	}
	all := func(table string, _ int) string { return "SELECT number, str FROM " + table }
	star := func(table string) string { return "SELECT * FROM " + table + " WHERE number=?" }
	var num int64
	var str string
	var one int
	var raw []byte
	var rawb sql.RawBytes
	pair := func() []any { return []any{&num, &str} }
	const large = "SELECT REPEAT('A', 10000)"
	echo := []any{int64(42), "Gopher", 1.618, nil, true}
	var e struct {
		id    int64
		name  string
		ratio float64
		other any
		hire  bool
	}
	return map[string]published{
		"SimpleQuery": {query(all, none), per("Query=n"), "*int64 *string"},
		"PreparedQuery": {prepared(func(t string) string { return all(t, 0) }, 0, func(s *sql.Stmt, _ int) error {
			rows, err := s.Query()
			if err != nil {
				return err
			}
			return drain(rows)
		}), per("Prepare=1", "Stmt.Query=n", "Stmt.Close=1"), "*int64 *string"},
		"AutoQueryRow": {
			queryRow(func(t string, _ int) string { return star(t) }, func(i int) []any { return []any{i % 100} },
				pair),
			per("QueryRow=n"),
			"*int64 *string",
		},
		"SimpleQueryRow": {
			queryRow(
				func(t string, i int) string { return fmt.Sprintf("SELECT * FROM %s WHERE number=%d", t, i%100) },
				none,
				pair,
			),
			per("QueryRow=n"),
			"*int64 *string",
		},
		"PreparedQueryRow": {
			prepared(star, 100, func(s *sql.Stmt, i int) error { return s.QueryRow(i%100).Scan(&num, &str) }),
			per("Prepare=n/100", "Stmt.QueryRow=n", "Stmt.Close=n/100"),
			"*int64 *string",
		},
		"SimpleExec": {exec("SET @test_var=1"), per("Exec=n"), ""},
		"PreparedExec": {
			prepared(text("SET @test_var=1"), 0, func(s *sql.Stmt, _ int) error { _, err := s.Exec(); return err }),
			per("Prepare=1", "Stmt.Exec=n", "Stmt.Close=1"),
			"",
		},
		"SimpleDo": {exec("DO 1"), per("Exec=n"), ""},
		"PreparedDo": {
			prepared(text("DO 1"), 0, func(s *sql.Stmt, _ int) error { _, err := s.Exec(); return err }),
			per("Prepare=1", "Stmt.Exec=n", "Stmt.Close=1"),
			"",
		},
		"SimpleQueryRowSelect1": {
			queryRow(func(string, int) string { return "SELECT 1" }, none, func() []any { return []any{&one} }),
			per("QueryRow=n"),
			"*int",
		},
		"PreparedQueryRowSelect1": {
			prepared(text("SELECT 1"), 0, func(s *sql.Stmt, _ int) error { return s.QueryRow().Scan(&one) }),
			per("Prepare=1", "Stmt.QueryRow=n", "Stmt.Close=1"),
			"*int",
		},
		"PreparedQueryRowParam": {
			prepared(text("SELECT ?"), 0, func(s *sql.Stmt, i int) error { return s.QueryRow(i).Scan(&one) }),
			per("Prepare=1", "Stmt.QueryRow=n", "Stmt.Close=1"),
			"*int",
		},
		"EchoMixed5": {prepared(text("SELECT ?, ?, ?, ?, ?"), 0, func(s *sql.Stmt, _ int) error {
			return s.QueryRow(echo...).Scan(&e.id, &e.name, &e.ratio, &e.other, &e.hire)
		}), per("Prepare=1", "Stmt.QueryRow=n", "Stmt.Close=1"), "*int64 *string *float64 *interface {} *bool"},
		"SelectLargeString": {
			queryRow(func(string, int) string { return large }, none, func() []any { return []any{&str} }),
			per("QueryRow=n"),
			"*string",
		},
		"SelectPreparedLargeString": {
			prepared(text(large), 0, func(s *sql.Stmt, _ int) error { return s.QueryRow().Scan(&str) }),
			per("Prepare=1", "Stmt.QueryRow=n", "Stmt.Close=1"),
			"*string",
		},
		"SelectLargeBytes": {
			queryRow(func(string, int) string { return large }, none, func() []any { return []any{&raw} }),
			per("QueryRow=n"),
			"*[]uint8",
		},
		"SelectPreparedLargeBytes": {
			prepared(text(large), 0, func(s *sql.Stmt, _ int) error { return s.QueryRow().Scan(&raw) }),
			per("Prepare=1", "Stmt.QueryRow=n", "Stmt.Close=1"),
			"*[]uint8",
		},
		"SelectLargeRaw": {query(func(string, int) string { return large }, none), per("Query=n"), "*sql.RawBytes"},
		"SelectPreparedLargeRaw": {prepared(text(large), 0, func(s *sql.Stmt, _ int) error {
			rows, err := s.Query()
			if err != nil {
				return err
			}
			for rows.Next() {
				if err := rows.Scan(&rawb); err != nil {
					rows.Close()
					return err
				}
			}
			return rows.Close()
		}), per("Prepare=1", "Stmt.Query=n", "Stmt.Close=1"), "*sql.RawBytes"},
	}
}

// drain reads every row of rows as the published whole-table reads do
// (Next and Scan into an int64 and a string, or a sql.RawBytes for one
// column).
func drain(rows *sql.Rows) error {
	cols, err := rows.Columns()
	if err != nil {
		rows.Close()
		return err
	}
	var num int64
	var str string
	var raw sql.RawBytes
	dest := []any{&num, &str}
	if len(cols) == 1 {
		dest = []any{&raw}
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			rows.Close()
			return err
		}
	}
	return rows.Close()
}

// mariadbCounters are the server's counters of what a client asked for:
// text-protocol statements by kind and the binary protocol's prepare,
// execute and close.
var mariadbCounters = []string{
	"Com_select",
	"Com_set_option",
	"Com_do",
	"Com_stmt_prepare",
	"Com_stmt_execute",
	"Com_stmt_close",
	"Com_stmt_reset",
}

// SQLBenchmarkCallsAsPublished runs every one-connection workload of the
// classic and sqlbench2 families on a database/sql target on MariaDB and
// checks it against the published SQL-Benchmark programs, whose timed
// region holds all of a test's calls (the prepare and close of a prepared
// test too): the database/sql calls the run makes inside the clock and the
// types rows are scanned into must be the program's (counted at sqlbench's
// adapter), Begin and End (outside the clock) must make none, and the
// statements the server counted inside the clock (text-protocol SELECT,
// SET and DO; binary-protocol prepare, execute and close) must be those
// the program's own calls make through the same pool, run beside it. The
// run is warmed up first, as a session's: the warm-up must leave the
// timed run to prepare its own statement. The classic table must have the
// program's columns, types and 100 rows numbered 0 to 99.
func SQLBenchmarkCallsAsPublished(t *testing.T, target string, where Where) {
	const n, warm = 200, 50
	programs := sqlBenchmarkPrograms()
	for _, w := range bench.Workloads() {
		if (w.Family != "classic" && w.Family != "sqlbench2") || !w.RunsOn(bench.MariaDB) || w.Keys != "" {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			p, ok := programs[w.ID()]
			if !ok {
				t.Fatalf("no published program for %s", w.ID())
			}
			e := NewEnv(t, target, where)
			pooled, ok := e.Conn.(interface{ Pool() *sql.DB })
			if !ok {
				t.Fatalf("%s is not a database/sql target", target)
			}
			db := pooled.Pool()
			setUp(t, w, e)
			table := e.Dialect.Table("test")
			if w.Family == "classic" {
				checkClassicTable(t, db, table)
			}
			calls := Count(&e)
			e.Warm, e.N = warm, n
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := calls.Snapshot(); len(got) != 0 {
				t.Errorf("Begin, before the clock, made the calls %v; the published program makes all inside it", got)
			}
			err = bench.Warm(r, warm)
			calls.Reset()
			before := serverCounts(t, db)
			if err == nil {
				_, err = bench.Measure(r, warm, n, bench.NewLatencyHistogram())
			}
			ours := delta(before, serverCounts(t, db))
			got, dests := calls.Snapshot()
			calls.Reset()
			if r.End != nil {
				if eerr := r.End(); err == nil {
					err = eerr
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := calls.Snapshot(); len(after) != 0 {
				t.Errorf("End, after the clock, made the calls %v; the published program makes all inside it", after)
			}
			if want := p.calls(n); !maps.Equal(got, want) {
				t.Errorf("%d operations made the calls %v inside the clock, the published program %v", n, got, want)
			}
			if p.dests != "" && !slices.Equal(dests, []string{p.dests}) {
				t.Errorf("rows scanned into %q, the published program's into %q", dests, p.dests)
			}
			before = serverCounts(t, db)
			if err := p.run(db, table, n); err != nil {
				t.Fatalf("the published calls: %v", err)
			}
			theirs := delta(before, serverCounts(t, db))
			if !maps.Equal(ours, theirs) {
				t.Errorf("the server counted %v for sqlbench's %d operations, %v for the published program's", ours, n,
					theirs)
			}
		})
	}
}

// checkClassicTable checks the classic table against the published
// program's: `number` int(3) NOT NULL, `str` varchar(4) NOT NULL, the
// primary key on number, rows 0 to 99 holding "Test".
func checkClassicTable(t *testing.T, db *sql.DB, table string) {
	t.Helper()
	var cols []string
	rows, err := db.Query("SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_KEY FROM information_schema.COLUMNS " +
		"WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '" + table + "' ORDER BY ORDINAL_POSITION")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, typ, null, key string
		if err := rows.Scan(&name, &typ, &null, &key); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, strings.Join([]string{name, typ, null, key}, " "))
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(cols, ", "), "number int(3) NO PRI, str varchar(4) NO "; got != want {
		t.Errorf("classic table columns %q, published %q", got, want)
	}
	var lo, hi, count int64
	var strs string
	err = db.QueryRow("SELECT MIN(number), MAX(number), COUNT(*), GROUP_CONCAT(DISTINCT str) FROM "+table).
		Scan(&lo, &hi, &count, &strs)
	if err != nil {
		t.Fatal(err)
	}
	if lo != 0 || hi != 99 || count != 100 || strs != "Test" {
		t.Errorf(
			"classic table holds numbers %d to %d in %d rows with %q, published 0 to 99 in 100 rows with \"Test\"",
			lo,
			hi,
			count,
			strs,
		)
	}
}

// serverCounts reads the server's global counters of mariadbCounters.
func serverCounts(t *testing.T, db *sql.DB) map[string]int64 {
	t.Helper()
	rows, err := db.Query("SHOW GLOBAL STATUS WHERE Variable_name IN ('" + strings.Join(mariadbCounters, "','") + "')")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		if out[k], err = strconv.ParseInt(v, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// delta is after - before, counter by counter, leaving out those that did
// not move.
func delta(before, after map[string]int64) map[string]int64 {
	d := map[string]int64{}
	for k, v := range after {
		if v != before[k] {
			d[k] = v - before[k]
		}
	}
	return d
}
