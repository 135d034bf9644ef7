package targettest

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// DetectsWrongBulkData runs each bulk-insert path of target (the 3x8 shape)
// and the analytics query, corrupts the table after the rows are written,
// and expects the verification to fail: a driver that mangles or loses rows
// must never be reported as fast.
func DetectsWrongBulkData(t *testing.T, target string, where Where) {
	spec := lookup(t, target, where)
	for _, w := range bench.Workloads() {
		if w.Family != "bulk" || !strings.Contains(w.Keys, "shape=3x8/") || !spec.Runs(w) {
			continue
		}
		for _, c := range []struct{ name, sql, want string }{
			{"Changed", "UPDATE %s SET c1 = 'corrupt1' WHERE %c0", "read back wrong"},
			{"Lost", "DELETE FROM %s WHERE %c0", "rows, want"},
		} {
			t.Run(w.Keys+"/"+c.name, func(t *testing.T) {
				e := NewEnv(t, target, where)
				const warm, n = 10, 100
				e.Warm, e.N = warm, n
				setUp(t, w, e)
				r, err := w.Begin(e)
				if err != nil {
					t.Fatal(err)
				}
				if err = bench.Warm(r, warm); err == nil {
					_, err = bench.Measure(r, warm, n, bench.NewLatencyHistogram())
				}
				if err != nil {
					r.End()
					t.Fatal(err)
				}
				// The row whose c0 is row 42's. SQLite stores a []byte
				// argument (args=bytes) as a BLOB, which equals no text:
				// compare it as text; lib/pq's COPY stores a []byte as
				// bytea hex text.
				v := bench.Value(42, 0, 3, 8)
				c0 := "c0 = '" + v + "'"
				switch e.Dialect.DB {
				case bench.SQLite:
					c0 = "CAST(c0 AS TEXT) = '" + v + "'"
				case bench.Postgres:
					c0 = "(c0 = '" + v + "' OR c0 = '\\x" + hex.EncodeToString([]byte(v)) + "')"
				}
				q := strings.Replace(c.sql, "%c0", c0, 1)
				q = strings.Replace(q, "%s", e.Dialect.Table("bulk"), 1)
				if err := e.Conn.Exec(q); err != nil {
					t.Fatal(err)
				}
				if err := r.End(); err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf(
						"%s on %s with a row %s: End = %v, want an error saying %q",
						w.ID(),
						target,
						strings.ToLower(c.name),
						err,
						c.want,
					)
				}
			})
		}
	}
	t.Run("AggregateCount", func(t *testing.T) {
		w, ok := bench.LookupWorkload("AggregateCount")
		if !ok {
			t.Fatal("AggregateCount not registered")
		}
		skipUnless(t, target, where, w)
		e := NewEnv(t, target, where)
		e.N = 20
		setUp(t, w, e)
		// Setup filled the table; a first run passes, then one row is made
		// to count no more, and the next run must see it.
		r, err := w.Begin(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := bench.Warm(r, 1); err != nil {
			t.Fatal(err)
		}
		q := "UPDATE " + e.Dialect.Table("facts") + " SET c1 = c0 WHERE c0 = '" + bench.Value(7, 0, 3, 8) + "'"
		if err := e.Conn.Exec(q); err != nil {
			t.Fatal(err)
		}
		if r, err = w.Begin(e); err != nil {
			t.Fatal(err)
		}
		if err := bench.Warm(r, 1); err == nil || !strings.Contains(err.Error(), "want") {
			t.Fatalf("AggregateCount on %s with a changed row: %v, want a wrong-count error", target, err)
		}
	})
}
