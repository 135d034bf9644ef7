// Package targettest checks a target against real databases: every workload
// runs and verifies its results, and a corrupted table makes the workloads
// fail instead of reporting a number. Each driver package's tests call it.
package targettest

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	_ "github.com/sqlbench/sqlbench/workloads" // the catalogue under test
)

// Where gives each test the database it runs against.
type Where func(t testing.TB) bench.Config

// SQLite is a fresh SQLite file per test.
func SQLite(t testing.TB) bench.Config {
	return bench.Config{DB: bench.SQLite, DSN: filepath.Join(t.TempDir(), "test.db")}
}

// Open opens target at where with the session settings applied, and returns
// it with the dialect of its database, scoped to the test so that tests
// sharing a server database use tables of their own.
func Open(t testing.TB, target string, where Where) (bench.Conn, bench.Dialect) {
	t.Helper()
	open, ok := bench.LookupOpener(target)
	if !ok {
		t.Fatalf("target %q is not registered", target)
	}
	cfg := where(t)
	c, err := open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("open %s: %v", target, err)
	}
	t.Cleanup(func() { c.Close() })
	d := bench.DialectOf(cfg.DB)
	d.Scope = scope(t.Name())
	for _, q := range d.Setup {
		if err := c.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return c, d
}

// scope turns a test name into a short table-name-safe id.
func scope(name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("t%08x", h.Sum32())
}

// run sets up w on c and measures n operations after a short warm-up.
func run(c bench.Conn, d bench.Dialect, w bench.Workload, n int) error {
	if err := w.Setup(context.Background(), c, d); err != nil {
		return err
	}
	r, err := w.Begin(c, d)
	if err != nil {
		return err
	}
	if err = bench.Warm(r.Op, 10); err == nil {
		_, err = bench.Measure(r.Op, 10, n, bench.NewLatencyHistogram())
	}
	if r.End != nil {
		if eerr := r.End(); err == nil {
			err = eerr
		}
	}
	if terr := w.Teardown(c, d); err == nil {
		err = terr
	}
	return err
}

// Workloads runs every registered workload on target and expects each to
// pass its own verification.
func Workloads(t *testing.T, target string, where Where) {
	for _, w := range bench.Workloads() {
		t.Run(w.Name, func(t *testing.T) {
			if db := where(t).DB; !w.RunsOn(db) {
				return // not a workload of this database
			}
			c, d := Open(t, target, where)
			if err := run(c, d, w, 250); err != nil {
				t.Fatalf("%s on %s: %v", w.Name, target, err)
			}
		})
	}
}

// DetectsWrongData corrupts the classic table after set-up and expects the
// reading workloads to fail: a target that returns wrong data must never be
// timed.
func DetectsWrongData(t *testing.T, target string, where Where) {
	for _, name := range []string{"SimpleQuery", "PreparedQuery", "AutoQueryRow", "SimpleQueryRow", "PreparedQueryRow"} {
		t.Run(name, func(t *testing.T) {
			w, ok := bench.LookupWorkload(name)
			if !ok {
				t.Fatalf("workload %s not registered", name)
			}
			c, d := Open(t, target, where)
			if err := w.Setup(context.Background(), c, d); err != nil {
				t.Fatal(err)
			}
			defer w.Teardown(c, d)
			if err := c.Exec("UPDATE " + d.Table("test") + " SET str = 'Tset' WHERE number = 42"); err != nil {
				t.Fatal(err)
			}
			r, err := w.Begin(c, d)
			if err != nil {
				t.Fatal(err)
			}
			if r.End != nil {
				defer r.End()
			}
			_, err = bench.Measure(r.Op, 0, 200, bench.NewLatencyHistogram())
			if err == nil || !strings.Contains(err.Error(), "Tset") {
				t.Fatalf("%s on %s with a corrupted row: err = %v, want a wrong-row error", name, target, err)
			}
		})
	}
}

// Fidelity compares, in one benchmark run, sqlbench's SimpleQueryRow with a
// plain hand-written database/sql loop making the same calls on the same
// kind of database: the two ns/op should agree within a few percent. driver
// and dsnPrefix name the database/sql driver the target uses.
func Fidelity(b *testing.B, target, driver, dsnPrefix string) {
	b.Run("impl=sqlbench", func(b *testing.B) {
		c, d := Open(b, target, SQLite)
		d.Scope = "" // the same table name as the hand-written loop
		w, _ := bench.LookupWorkload("SimpleQueryRow")
		if err := w.Setup(context.Background(), c, d); err != nil {
			b.Fatal(err)
		}
		r, err := w.Begin(c, d)
		if err != nil {
			b.Fatal(err)
		}
		if err := bench.Warm(r.Op, 1000); err != nil {
			b.Fatal(err)
		}
		h := bench.NewLatencyHistogram()
		b.ReportAllocs()
		b.ResetTimer()
		if _, err := bench.Measure(r.Op, 0, b.N, h); err != nil {
			b.Fatal(err)
		}
	})
	b.Run("impl=handwritten", func(b *testing.B) {
		db, err := sql.Open(driver, dsnPrefix+filepath.Join(b.TempDir(), "hand.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		for _, q := range bench.SQLiteSetup() {
			if _, err := db.Exec(q); err != nil {
				b.Fatal(err)
			}
		}
		ins := "INSERT INTO sqlbench_test (number, str) VALUES "
		for i := 1; i <= 100; i++ {
			if i > 1 {
				ins += ","
			}
			ins += "(" + strconv.Itoa(i) + ",'Test')"
		}
		for _, q := range []string{"DROP TABLE IF EXISTS sqlbench_test", "CREATE TABLE sqlbench_test (number INT PRIMARY KEY, str VARCHAR(4))", ins} {
			if _, err := db.Exec(q); err != nil {
				b.Fatal(err)
			}
		}
		texts := make([]string, 100)
		for i := range texts {
			texts[i] = "SELECT number, str FROM sqlbench_test WHERE number=" + strconv.Itoa(i+1)
		}
		var num int64
		var str string
		loop := func(n int) {
			for i := 0; i < n; i++ {
				if err := db.QueryRow(texts[i%100]).Scan(&num, &str); err != nil {
					b.Fatal(err)
				}
				if num != int64(i%100+1) || str != "Test" {
					b.Fatalf("wrong row (%d, %q)", num, str)
				}
			}
		}
		loop(1000)
		b.ReportAllocs()
		b.ResetTimer()
		loop(b.N)
	})
}
