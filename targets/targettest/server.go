package targettest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/testenv"
)

// WithServer starts a throwaway server of kind for a package's tests, runs
// them, stops it, and returns the exit code for TestMain. The fast profile
// keeps the tests quick; durability is not what they check. When kind's
// server is not installed, the tests run with *srv nil: those that need it
// skip (OnServer, ServerSuite), or fail under SQLBENCH_SERVERS=1.
func WithServer(m *testing.M, kind servers.Kind, srv **servers.Server) int {
	if servers.Installed(kind) != nil && !testenv.Strict() {
		return m.Run()
	}
	s, err := servers.Start(context.Background(), servers.Options{Kind: kind, Profile: servers.ProfileFast})
	if err != nil {
		fmt.Fprintf(os.Stderr, "start %s: %v\n", kind, err)
		return 1
	}
	*srv = s
	defer s.Stop()
	return m.Run()
}

// OnServer returns the Where of srv's endpoint over net. With no server
// (WithServer found none installed) it skips t, naming what is missing.
func OnServer(t testing.TB, srv *servers.Server, db bench.DB, net string) Where {
	t.Helper()
	needServer(t, srv, db)
	return func(t testing.TB) bench.Config {
		e, err := srv.Endpoint(net)
		if err != nil {
			t.Fatal(err)
		}
		return bench.Config{DB: db, Server: e.Bench()}
	}
}

// ServerSuite checks targets against srv over TCP and the unix socket: every
// workload runs and verifies, corrupted data fails the reading workloads,
// the suite's foreign keys are enforced, and a wrong password is an error that does not carry the password.
func ServerSuite(t *testing.T, srv *servers.Server, db bench.DB, targets ...string) {
	needServer(t, srv, db)
	for _, target := range targets {
		for _, net := range []string{"tcp", "unix"} {
			where := OnServer(t, srv, db, net)
			t.Run(target+"/"+net, func(t *testing.T) {
				t.Run("Workloads", func(t *testing.T) { Workloads(t, target, where) })
				t.Run("DetectsWrongData", func(t *testing.T) { DetectsWrongData(t, target, where) })
				t.Run("SuiteDetectsWrongData", func(t *testing.T) { SuiteDetectsWrongData(t, target, where) })
				t.Run("SuiteEnforcesForeignKeys", func(t *testing.T) { SuiteEnforcesForeignKeys(t, target, where) })
				t.Run("WrongPassword", func(t *testing.T) {
					cfg := where(t)
					cfg.Server.Password = "not-" + cfg.Server.Password
					open, _ := bench.LookupOpener(target)
					c, err := open(context.Background(), cfg)
					if err == nil {
						c.Close()
						t.Fatal("a wrong password was accepted")
					}
					if strings.Contains(err.Error(), cfg.Server.Password) {
						t.Errorf("the error carries the password: %v", err)
					}
				})
			})
		}
	}
}

// needServer skips t when WithServer started no server for db (testenv).
func needServer(t testing.TB, srv *servers.Server, db bench.DB) {
	t.Helper()
	if srv != nil {
		return
	}
	kind := servers.KindMariaDB
	if db == bench.Postgres {
		kind = servers.KindPostgres
	}
	err := servers.Installed(kind)
	if err == nil {
		err = fmt.Errorf("no %s server was started", kind)
	}
	testenv.Need(t, "a "+string(kind)+" server", err)
}
