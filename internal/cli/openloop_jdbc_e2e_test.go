package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestOpenLoopOnTheJDBCRunner runs an open-loop session (--rate,
// --latency-limit, --progress) below saturation on a throwaway PostgreSQL
// server with a Go target beside the JDBC ones: a one-client workload
// (PreparedQueryRow: pgx, pgjdbc) and a pool shared by 16 clients
// (PoolQuery: pgx's database/sql pool, HikariCP over pgjdbc). Every cell,
// Java's as Go's, keeps the rate (arrivals per second within 25% of it),
// has next to nothing late or skipped, carries the open-loop units, and
// has its progress series in the results file.
func TestOpenLoopOnTheJDBCRunner(t *testing.T) {
	needServers(t, servers.KindPostgres)
	needJDK(t)
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	const rate = 400
	code := Main(context.Background(), []string{"run", "--db", "postgres", "--net", "tcp",
		"--targets", "pgx,jdbc-postgres,jdbc-pg-hikari", "--workloads", "PreparedQueryRow,PoolQuery/pool=4/clients=16",
		"--rate", "400", "--latency-limit", "100ms", "--progress", "1s", "--scale", "0.02", "--count", "1",
		"--slices", "1", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"PreparedQueryRow/db=postgres/driver=pgx/api=sql":     false,
		"PreparedQueryRow/db=postgres/driver=pgjdbc/api=jdbc": false,
		"PoolQuery/db=postgres/driver=pgx/api=sql":            false,
		"PoolQuery/db=postgres/driver=pgjdbc-hikari/api=jdbc": false,
	}
	for _, r := range set.Results {
		name := r.Name.String()
		key := ""
		for k := range want {
			base, rest, _ := strings.Cut(k, "/")
			if strings.HasPrefix(name, base+"/") && strings.Contains(name, "/"+rest+"/") {
				key = k
			}
		}
		if key == "" {
			t.Errorf("unexpected result %s", name)
			continue
		}
		want[key] = true
		v := map[string]float64{}
		for _, x := range r.Values {
			v[x.Unit] = x.Value
		}
		for _, u := range []string{"lag-sec/op", "late", "skipped", "done-ops/s", "p99-sec/op"} {
			if _, ok := v[u]; !ok {
				t.Errorf("%s has no %s: %v", name, u, v)
			}
		}
		arrivals := float64(r.Iters)
		if got := v["ops/s"]; got < 0.75*rate || got > 1.25*rate {
			t.Errorf("%s: %.0f arrivals/s, want %d within 25%%", name, got, rate)
		}
		if bad := v["late"] + v["skipped"]; bad > 0.1*arrivals {
			t.Errorf("%s: %v late and %v skipped of %v arrivals below saturation", name, v["late"], v["skipped"],
				arrivals)
		}
		t.Logf("%s: %.0f arrivals/s, %.0f done/s, p50 %.3f ms, p99 %.3f ms, lag %.3f ms, late %v, skipped %v",
			name, v["ops/s"], v["done-ops/s"], v["p50-sec/op"]*1e3, v["p99-sec/op"]*1e3, v["lag-sec/op"]*1e3,
			v["late"], v["skipped"])
		series := ""
		for _, c := range r.Config {
			if strings.HasPrefix(c.Key, "series-") && strings.Contains(string(c.Value), name) {
				series = string(c.Value)
			}
		}
		if strings.Count(series, "t=") < 2 || !strings.Contains(series, "p99=") {
			t.Errorf("%s: series %q, want an interval a second", name, series)
		}
	}
	for k, ok := range want {
		if !ok {
			t.Errorf("no result for %s", k)
		}
	}
}
