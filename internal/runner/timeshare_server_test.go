package runner_test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/runner"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/unit"
	_ "github.com/sqlbench/sqlbench/targets/mysql"
	_ "github.com/sqlbench/sqlbench/targets/pgx"
)

// queryWorkload registers a test workload that runs one query per
// operation, the query chosen by database.
func queryWorkload(name string, q map[bench.DB]string) {
	bench.RegisterWorkload(bench.Workload{
		Name: name, Family: "test-timeshare", Ops: 1, Unit: "queries",
		Only:     []bench.DB{bench.MariaDB, bench.Postgres},
		Describe: func(bench.Dialect) string { return name },
		Setup:    func(bench.Env) error { return nil },
		Teardown: func(bench.Env) error { return nil },
		Begin: func(e bench.Env) (bench.Run, error) {
			return bench.Run{Op: func(int) error { return e.Conn.Exec(q[e.Dialect.DB]) }}, nil
		},
	})
}

func init() {
	// The server sleeps: the time is waiting, neither side's CPU.
	queryWorkload("TimeShareSleep", map[bench.DB]string{
		bench.Postgres: "SELECT pg_sleep(0.005)", bench.MariaDB: "DO SLEEP(0.005)"})
	// The server computes: its CPU, not the client's.
	queryWorkload("TimeShareServerWork", map[bench.DB]string{
		bench.Postgres: "SELECT count(*) FROM generate_series(1, 300000)",
		bench.MariaDB:  "DO BENCHMARK(300000, MD5('sqlbench'))"})
}

// runOn runs workload once on target against srv through a runner loop,
// with the server's pid, and returns the result line's values by unit.
func runOn(t *testing.T, srv *servers.Server, db bench.DB, target, workload string, n int) map[string]float64 {
	t.Helper()
	e, err := srv.Endpoint("tcp")
	if err != nil {
		t.Fatal(err)
	}
	req := protocol.Request{Verb: protocol.VerbRun, Target: target, Workload: workload, DB: string(db),
		Scope: "ts", Name: workload, N: n, Warmup: 2,
		Location: protocol.Location{Endpoint: e.Bench(), ServerPID: srv.PID}}
	var out, log bytes.Buffer
	s := &runner.Loop{In: strings.NewReader(req.Encode() + "\nclose target=" + url.QueryEscape(target) + "&scope=ts\n"),
		Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(strings.NewReader(out.String()), "runner")
	for rd.Scan() {
		if r, ok := rd.Result().(*benchfmt.Result); ok {
			vals := map[string]float64{}
			for _, v := range r.Values {
				vals[v.OrigUnit] = v.OrigValue
				if v.OrigUnit == "" {
					vals[v.Unit] = v.Value
				}
			}
			return vals
		}
	}
	t.Fatalf("no result line:\n%s\n%s", out.String(), log.String())
	return nil
}

// TestTimeShareOnRealServers: a server that sleeps shows as waiting, a
// server that computes as server CPU, on a throwaway PostgreSQL and
// MariaDB.
func TestTimeShareOnRealServers(t *testing.T) {
	for _, c := range []struct {
		kind   servers.Kind
		db     bench.DB
		target string
	}{{servers.KindPostgres, bench.Postgres, "pgx"}, {servers.KindMariaDB, bench.MariaDB, "mysql"}} {
		t.Run(string(c.db), func(t *testing.T) {
			srv, err := servers.Start(context.Background(), servers.Options{Kind: c.kind, Profile: servers.ProfileFast})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			v := runOn(t, srv, c.db, c.target, "TimeShareSleep", 100)
			t.Logf("sleep: %s", describe(v))
			checkAddsUp(t, v)
			wall, blocked := v["ns/op"], v[unit.Blocked]
			if blocked < 0.7*wall || v[unit.ServerCPU] > 0.2*wall || v[unit.OnCPU] > 0.2*wall {
				t.Errorf("a 5 ms server sleep: %s; want the wall time mostly blocked", describe(v))
			}
			v = runOn(t, srv, c.db, c.target, "TimeShareServerWork", 20)
			t.Logf("server work: %s", describe(v))
			checkAddsUp(t, v)
			if server := v[unit.ServerCPU]; !(server > 5*v[unit.OnCPU]) || server > 1.5*v["ns/op"] {
				t.Errorf("a query the server computes: %s; want server CPU far above the client thread's, within the "+
					"wall time", describe(v))
			}
			if blocked := v[unit.Blocked]; blocked < 0.5*v["ns/op"] {
				t.Errorf("a query the server computes: %s; want the client thread mostly blocked on it", describe(v))
			}
		})
	}
}

func describe(v map[string]float64) string {
	return fmt.Sprintf("%.0f ns/op = on CPU %.0f + run queue %.0f + blocked %.0f; background CPU %.0f, server CPU %.0f",
		v["ns/op"], v[unit.OnCPU], v[unit.RunQueue], v[unit.Blocked], v[unit.BackgroundCPU], v[unit.ServerCPU])
}

// checkAddsUp fails t unless the thread's three parts are there, none
// negative, and add up to ns/op within 1%.
func checkAddsUp(t *testing.T, v map[string]float64) {
	t.Helper()
	sum := 0.0
	for _, u := range []string{unit.OnCPU, unit.RunQueue, unit.Blocked, unit.BackgroundCPU} {
		x, ok := v[u]
		if !ok || x < 0 {
			t.Fatalf("%s: %v (present %v): want present and not negative", u, x, ok)
		}
		if u != unit.BackgroundCPU {
			sum += x
		}
	}
	if wall := v["ns/op"]; sum < 0.99*wall || sum > 1.01*wall {
		t.Fatalf("on CPU + run queue + blocked = %.0f, ns/op %.0f: want within 1%%", sum, wall)
	}
}
