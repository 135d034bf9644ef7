package targettest

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// OpAllocs returns the heap allocations of one operation of workload id
// on target in a fresh SQLite file, averaged over n operations
// (testing.AllocsPerRun, which runs one more first): the run's Start
// before them and its Finish and End (which checks what the run wrote)
// after, untimed, as the harness calls them.
func OpAllocs(t *testing.T, target, id string, n int) float64 {
	t.Helper()
	w, ok := bench.LookupWorkload(id)
	if !ok {
		t.Fatalf("no workload %s", id)
	}
	e := NewEnv(t, target, SQLite)
	e.Warm, e.N = 0, n+1
	r, err := w.Begin(e)
	if err != nil {
		t.Fatal(err)
	}
	if r.Start != nil {
		if err := r.Start(); err != nil {
			t.Fatal(err)
		}
	}
	i := 0
	got := testing.AllocsPerRun(n, func() {
		if err := r.Op(i); err != nil {
			t.Fatal(err)
		}
		i++
	})
	if r.Finish != nil {
		if err := r.Finish(); err != nil {
			t.Fatal(err)
		}
	}
	if r.End != nil {
		if err := r.End(); err != nil {
			t.Fatal(err)
		}
	}
	return got
}
