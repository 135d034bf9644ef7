package session

import (
	"io"
	"slices"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestTargetGlobsAndExclusions: globs select targets of the session's
// databases; exclusions alone start from every target of them and do not
// make the targets named (a skip does not count against the outcome).
func TestTargetGlobsAndExclusions(t *testing.T) {
	for _, c := range []struct {
		dbs      []bench.DB
		list     []string
		runnable []string
		explicit bool
	}{
		{[]bench.DB{bench.Postgres}, []string{"pgx*", "-pgx-native"}, []string{"pgx", "pgxpool"}, true},
		{[]bench.DB{bench.Postgres}, []string{"-jdbc*", "-pq"}, []string{"pgx", "pgx-native"}, false},
		{[]bench.DB{bench.SQLite, bench.Postgres}, []string{"p*"}, []string{"pq", "pgx", "pgx-native", "pgxpool"},
			true},
		{[]bench.DB{bench.SQLite}, []string{"-sqinn", "-jdbc-sqlite", "-*c*"},
			[]string{"mattn", "zombiezen", "eatonphil"}, false},
		// A protocol floor only by its name: not by a pattern, not by default.
		{[]bench.DB{bench.Postgres}, []string{"pgx", "pgproto"}, []string{"pgx", "pgproto"}, true},
		{[]bench.DB{bench.MariaDB}, []string{"-jdbc*", "-mysql*", "-mymysql*"}, []string{"go-mysql"}, false},
	} {
		cfg := Config{DBs: c.dbs, Targets: c.list, Workloads: []string{"SimpleQuery"}, Scale: 0.2}
		p, err := NewPlan(&cfg, fakeEnv(io.Discard))
		if err != nil {
			t.Errorf("%v: %v", c.list, err)
			continue
		}
		var got []string
		for _, tg := range p.Runnable {
			got = append(got, tg.Name)
		}
		if !slices.Equal(got, c.runnable) || p.Explicit != c.explicit {
			t.Errorf("--targets %q: runnable %v explicit %v; want %v %v", c.list, got, p.Explicit, c.runnable,
				c.explicit)
		}
	}
}

func TestWorkloadGlobsAndExclusions(t *testing.T) {
	ws, err := SelectWorkloads([]string{"-SimpleQuery*", "-Prepared*"})
	if err != nil {
		t.Fatal(err)
	}
	classic, _ := SelectWorkloads(nil)
	var got []string
	for _, w := range ws {
		got = append(got, w.ID())
	}
	if len(ws) == 0 || len(ws) >= len(classic) ||
		slices.ContainsFunc(got, func(id string) bool { return id == "SimpleQuery" || id == "PreparedQuery" }) {
		t.Errorf("classic less SimpleQuery* and Prepared*: %v", got)
	}
	all, _ := SelectWorkloads([]string{"all"})
	suite, _ := SelectWorkloads([]string{"all", "-Suite*"})
	if len(all) != len(bench.Workloads()) || len(suite) >= len(all) || slices.ContainsFunc(suite,
		func(w bench.Workload) bool { return w.Family == "suite" && w.Name[:5] == "Suite" }) {
		t.Errorf("all: %d of %d; all less Suite*: %d", len(all), len(bench.Workloads()), len(suite))
	}
}
