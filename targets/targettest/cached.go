package targettest

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// CachedQueries checks that target reads through its library's statement
// cache (bench.CachedQuerier), as a program calling the library's Prepare
// for every query does: the rows are right, a read abandoned by its row
// function is not left running, and a cached read allocates less than one
// that compiles the query anew (Query), which allocates the library's
// statement and its adapter.
func CachedQueries(t *testing.T, target string) {
	c, _ := Open(t, target, SQLite)
	if _, ok := c.(bench.CachedQuerier); !ok {
		t.Fatalf("%s (%T) has no statement cache to read through", target, c)
	}
	const q = "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3"
	sum := func() (int64, error) {
		var s, v int64
		err := bench.QueryCached(c, q, func(r bench.Row) error {
			err := r.Scan(&v)
			s += v
			return err
		})
		return s, err
	}
	for i := 0; i < 2; i++ {
		if s, err := sum(); err != nil || s != 6 {
			t.Fatalf("read %d: sum %d, %v; want 6", i+1, s, err)
		}
	}
	stop := bench.ErrNoRows // any error of the row function's
	if err := bench.QueryCached(c, q, func(bench.Row) error { return stop }); err != stop {
		t.Fatalf("a row function's error came back as %v", err)
	}
	if s, err := sum(); err != nil || s != 6 {
		t.Fatalf("after an abandoned read: sum %d, %v; want 6 (the statement was left mid-way)", s, err)
	}
	var none bench.RowFunc = func(bench.Row) error { return nil }
	cached := testing.AllocsPerRun(50, func() { bench.QueryCached(c, q, none) })
	compiled := testing.AllocsPerRun(50, func() { c.Query(q, none) })
	if cached >= compiled {
		t.Errorf("a cached read allocates %.1f times, one compiled anew %.1f: the cache was not used", cached, compiled)
	}
}

// ReadsFromTheCache checks that every read workload of family on target
// takes its statement from the connection's cache, as the published
// adapters of the SQLite suites do (conn.Prepare): n operations make n
// QueryCached calls inside the clock and nothing else, the concurrent
// workload (named concurrent, its client count in its key as key=N) one
// a client, each on its own connection: opened in the round, or, where
// pooled, opened before the clock and held from its pool in the round
// (Hold and Release, bench.Holder), as the published program takes its
// connections from a pool opened beforehand.
func ReadsFromTheCache(t *testing.T, target, family, concurrent, key string, pooled bool) {
	const n = 3
	for _, w := range bench.Workloads() {
		if w.Family != family || strings.HasSuffix(w.Name, "Insert") {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			want := map[string]int{"QueryCached": n}
			if w.Name == concurrent {
				var clients int
				if _, err := fmt.Sscanf(w.Keys, key+"=%d", &clients); err != nil {
					t.Fatalf("%s: no %s= in its keys %q", w.ID(), key, w.Keys)
				}
				want = map[string]int{"QueryCached": clients * n, "Open": clients * n}
				if pooled {
					want = map[string]int{"QueryCached": clients * n, "Hold": clients * n, "Release": clients * n}
				}
			}
			if got := CountInClock(t, target, SQLite, w, n).Calls; !maps.Equal(got, want) {
				t.Errorf("%d operations made %v inside the clock, the published adapter %v", n, got, want)
			}
		})
	}
}
