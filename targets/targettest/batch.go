package targettest

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// BatchValuesChecked holds the batch family (workloads/batch.go) to its
// checks on target's path: a selected value that differs from the one
// written fails the run inside the clock, and an inserted row the server
// lost, or whose value changed, fails the run's end.
func BatchValuesChecked(t *testing.T, target string, where Where, path string) {
	t.Helper()
	workload := func(op string) bench.Workload {
		t.Helper()
		id := "Batch/op=" + op + "/path=" + path
		w, ok := bench.LookupWorkload(id)
		if !ok {
			t.Fatalf("workload %s not registered", id)
		}
		return w
	}
	t.Run("select", func(t *testing.T) {
		w := workload("select")
		e := NewEnv(t, target, where)
		setUp(t, w, e)
		if err := e.Conn.Exec("UPDATE " + e.Dialect.Table("batchsel") + " SET v = v + 1 WHERE id = 17"); err != nil {
			t.Fatal(err)
		}
		e.N = 2
		r, err := w.Begin(e)
		if err != nil {
			t.Fatal(err)
		}
		_, err = bench.Measure(r, 0, 2, bench.NewLatencyHistogram())
		if eerr := r.End(); eerr != nil {
			t.Error(eerr)
		}
		if err == nil || !strings.Contains(err.Error(), "id 17") {
			t.Errorf("a changed row read on path=%s: %v, want the run to fail on id 17", path, err)
		}
	})
	for _, spoil := range []string{"DELETE FROM %s WHERE id = 42", "UPDATE %s SET v = v + 1 WHERE id = 42"} {
		t.Run("insert/"+strings.Fields(spoil)[0], func(t *testing.T) {
			w := workload("insert")
			e := NewEnv(t, target, where)
			setUp(t, w, e)
			e.N = 2
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := bench.Measure(r, 0, 2, bench.NewLatencyHistogram()); err != nil {
				t.Fatal(err)
			}
			if err := e.Conn.Exec(strings.Replace(spoil, "%s", e.Dialect.Table("batchins"), 1)); err != nil {
				t.Fatal(err)
			}
			if err := r.End(); err == nil {
				t.Errorf("path=%s: the run's end passed after %q", path, spoil)
			}
		})
	}
}
