package targettest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// WithServer starts a throwaway server of kind for a package's tests, runs
// them, stops it, and returns the exit code for TestMain. The fast profile
// keeps the tests quick; durability is not what they check.
func WithServer(m *testing.M, kind servers.Kind, srv **servers.Server) int {
	s, err := servers.Start(context.Background(), servers.Options{Kind: kind, Profile: servers.ProfileFast})
	if err != nil {
		fmt.Fprintf(os.Stderr, "start %s: %v\n", kind, err)
		return 1
	}
	*srv = s
	defer s.Stop()
	return m.Run()
}

// OnServer returns the Where of srv's endpoint over net.
func OnServer(srv *servers.Server, db bench.DB, net string) Where {
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
	for _, target := range targets {
		for _, net := range []string{"tcp", "unix"} {
			where := OnServer(srv, db, net)
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
