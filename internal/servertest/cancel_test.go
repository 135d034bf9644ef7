package servertest_test

import (
	"context"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/testenv"
	"github.com/sqlbench/sqlbench/targets"
)

// cancelPath is what each driver's cancellation does to its connection:
// whether the next query runs on another server session (newconn) and
// whether the target's own connection had to be replaced (reopen).
var cancelPath = map[string][2]float64{
	"pq":           {1, 0}, // a cancel request on a side connection, then pq discards its own
	"pgx":          {1, 0}, // pgx closes its connection; database/sql opens another
	"pgx-native":   {1, 1}, // pgx closes its connection; the program must open another
	"mysql":        {1, 0}, // go-sql-driver closes its connection; database/sql opens another
	"mysql-interp": {1, 0},
}

// TestCancelPaths runs the Cancel workload on every target that declares
// CapContext and checks each driver's cancellation path as measured from
// the server's session ids: which keep their connection, which lose it.
func TestCancelPaths(t *testing.T) {
	w, ok := bench.LookupWorkload("Cancel")
	if !ok {
		t.Fatal("no Cancel workload")
	}
	seen := 0
	for _, kind := range []servers.Kind{servers.KindMariaDB, servers.KindPostgres} {
		t.Run(string(kind), func(t *testing.T) {
			testenv.Need(t, "a "+string(kind)+" server", servers.Installed(kind))
			srv, err := servers.Start(context.Background(), servers.Options{Kind: kind, Profile: servers.ProfileFast})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			e, err := srv.Endpoint("tcp")
			if err != nil {
				t.Fatal(err)
			}
			db := bench.DB(kind)
			for _, spec := range targets.All() {
				if spec.DB != db || !spec.Has(bench.CapContext) || spec.JVM {
					continue
				}
				open, ok := bench.LookupOpener(spec.Opener())
				if !ok {
					t.Fatalf("%s declares %s and has no opener", spec.Name, bench.CapContext)
				}
				seen++
				t.Run(spec.Name, func(t *testing.T) {
					want, ok := cancelPath[spec.Name]
					if !ok {
						t.Fatalf("no expected cancellation path for %s: add it to cancelPath", spec.Name)
					}
					env := bench.Env{Ctx: context.Background(), Dialect: bench.DialectOf(db),
						Open: func(ctx context.Context, pool int) (bench.Conn, error) {
							return open(ctx, bench.Config{DB: db, Server: e.Bench(), Pool: pool})
						}}
					r, err := w.Begin(env)
					if err != nil {
						t.Fatal(err)
					}
					for i := range 40 { // four cancels
						if err := r.Op(i); err != nil {
							t.Fatalf("operation %d: %v", i, err)
						}
					}
					got := map[string]float64{}
					for _, m := range r.Metrics() {
						got[m.Unit] = m.Value
					}
					if err := r.End(); err != nil {
						t.Error(err)
					}
					if got["cancel-ns/cancel"] <= 0 || got["recover-ns/cancel"] <= 0 {
						t.Errorf("metrics %v: want positive cancel and recover times", got)
					}
					if got["newconn/cancel"] != want[0] || got["reopen/cancel"] != want[1] {
						t.Errorf("newconn/cancel %v reopen/cancel %v, want %v %v", got["newconn/cancel"],
							got["reopen/cancel"], want[0], want[1])
					}
					t.Logf("%s: %v", spec.Name, got)
				})
			}
		})
	}
	if testenv.Strict() && seen != len(cancelPath) {
		t.Errorf("ran %d targets, cancelPath names %d", seen, len(cancelPath))
	}
}
