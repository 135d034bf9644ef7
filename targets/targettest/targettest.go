// Package targettest checks a target against real databases: every workload
// runs and verifies its results, and a corrupted table makes the workloads
// fail instead of reporting a number. Each driver package's tests call it,
// in this module or another: its API holds only public types, and
// Conformance takes what it checks and where through options (Package,
// Targets, Server).
package targettest

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
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
	e := NewEnv(t, target, where)
	return e.Conn, e.Dialect
}

// NewEnv is Open returning a workload's whole environment: its Open opens
// more connections of target at the same place (the caller closes them).
func NewEnv(t testing.TB, target string, where Where) bench.Env {
	t.Helper()
	open, ok := bench.LookupOpener(target)
	if !ok {
		t.Fatalf("target %q is not registered", target)
	}
	cfg := where(t)
	d := bench.DialectOf(cfg.DB)
	d.Scope = scope(t.Name())
	if cfg.DB == bench.SQLite {
		// The SQLite counterpart of the servers' fast profile: the tests
		// check results, not durability, and a synced commit per row
		// (SingleInsert) would cost seconds per workload and target.
		d.Setup = append(slices.Clip(d.Setup), "PRAGMA synchronous=OFF")
	}
	connect := func(ctx context.Context, pool int) (bench.Conn, error) {
		cfg := cfg
		cfg.Pool, cfg.Session = pool, d.Setup
		c, err := open(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", target, err)
		}
		for _, q := range d.Setup {
			if err := c.Exec(q); err != nil {
				c.Close()
				return nil, fmt.Errorf("%s: %w", q, err)
			}
		}
		return c, nil
	}
	c, err := connect(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return bench.Env{Ctx: context.Background(), Conn: c, Dialect: d, Open: connect, Scale: Scale}
}

// Scale is the --scale tests run workloads at: it sizes the tables of the
// workloads whose one operation reads a whole table (a 1,000,000-row table
// becomes 1,000 rows), so that every workload stays cheap on every target.
const Scale = 0.001

// Run sets up w in e, measures n operations after a short warm-up, checks
// them, and tears the workload down (bench.Exercise).
func Run(e bench.Env, w bench.Workload, n int) error { return bench.Exercise(e, w, n) }

// setUp sets w up in e, failing t if it cannot, and tears it down when t
// ends.
func setUp(t testing.TB, w bench.Workload, e bench.Env) {
	t.Helper()
	if err := w.Setup(e); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Teardown(e) })
}

// scope turns a test name into a short table-name-safe id.
func scope(name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("t%08x", h.Sum32())
}

// Workloads runs every registered workload on target and expects each to
// pass its own verification. Workloads planned only at a large scale
// (MinScale) are left to their own package's tests.
func Workloads(t *testing.T, target string, where Where) {
	spec := lookup(t, target, where)
	for _, w := range bench.Workloads() {
		t.Run(w.ID(), func(t *testing.T) {
			if !spec.Runs(w) || w.MinScale > 0 {
				return // not a workload of this target, or too big to test here
			}
			e := NewEnv(t, target, where)
			// At most 250 operations, and no more than a smoke run's
			// (at least 5) for a workload with a smoke scale of its own.
			n := min(250, w.Ops)
			if w.Smoke > 0 {
				n = min(n, max(5, w.OpsAt(w.Smoke)))
			}
			if err := Run(e, w, n); err != nil {
				t.Fatalf("%s on %s: %v", w.ID(), target, err)
			}
		})
	}
}

// DetectsWrongData corrupts the classic table after set-up and expects the
// reading workloads to fail: a target that returns wrong data must never be
// timed.
func DetectsWrongData(t *testing.T, target string, where Where) {
	for _, name := range []string{"SimpleQuery", "PreparedQuery", "AutoQueryRow", "SimpleQueryRow",
		"PreparedQueryRow"} {
		t.Run(name, func(t *testing.T) {
			w, ok := bench.LookupWorkload(name)
			if !ok {
				t.Fatalf("workload %s not registered", name)
			}
			skipUnless(t, target, where, w)
			e := NewEnv(t, target, where)
			c, d := e.Conn, e.Dialect
			setUp(t, w, e)
			if err := c.Exec("UPDATE " + d.Table("test") + " SET str = 'Tset' WHERE number = 42"); err != nil {
				t.Fatal(err)
			}
			e.N = 200
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			if r.End != nil {
				defer r.End()
			}
			_, err = bench.Measure(r, 0, 200, bench.NewLatencyHistogram())
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
		e := NewEnv(b, target, SQLite)
		e.Dialect.Scope = "" // the same table name as the hand-written loop
		w, _ := bench.LookupWorkload("SimpleQueryRow")
		if err := w.Setup(e); err != nil {
			b.Fatal(err)
		}
		r, err := w.Begin(e)
		if err != nil {
			b.Fatal(err)
		}
		if err := bench.Warm(r, 1000); err != nil {
			b.Fatal(err)
		}
		h := bench.NewLatencyHistogram()
		b.ReportAllocs()
		b.ResetTimer()
		if _, err := bench.Measure(r, 0, b.N, h); err != nil {
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
		for i := range 100 {
			if i > 0 {
				ins += ","
			}
			ins += "(" + strconv.Itoa(i) + ",'Test')"
		}
		for _, q := range []string{"DROP TABLE IF EXISTS sqlbench_test",
			"CREATE TABLE sqlbench_test (number INT NOT NULL, str VARCHAR(4) NOT NULL, PRIMARY KEY (number))", ins} {
			if _, err := db.Exec(q); err != nil {
				b.Fatal(err)
			}
		}
		// The published program's loop: the text formatted per query.
		var num int64
		var str string
		loop := func(n int) {
			for i := 0; i < n; i++ {
				q := fmt.Sprintf("SELECT * FROM sqlbench_test WHERE number=%d", i%100)
				if err := db.QueryRow(q).Scan(&num, &str); err != nil {
					b.Fatal(err)
				}
				if num != int64(i%100) || str != "Test" {
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
