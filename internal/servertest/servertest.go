// Package servertest gives the tests of sqlbench's server driver packages
// (targets/mysql, targets/pq, ...) a throwaway server of package servers,
// and hands it to the public test kit targettest as an endpoint: the part
// of those tests a driver package outside this module replaces with its
// own server (targettest.Server).
package servertest

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/testenv"
	"github.com/sqlbench/sqlbench/targets"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// Main starts a throwaway server of kind for a package's tests, runs them,
// stops it, and returns the exit code for TestMain. The fast profile keeps
// the tests quick; durability is not what they check. When kind's server
// is not installed, the tests run with *srv nil: those that need it skip
// (Where, Conformance), or fail under SQLBENCH_SERVERS=1 (testenv).
func Main(m *testing.M, kind servers.Kind, srv **servers.Server) int {
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

// Conformance runs targettest.Conformance on the catalogue's targets of
// the driver package pkg against srv, the server Main started.
func Conformance(t *testing.T, pkg string, srv *servers.Server) {
	db := bench.MariaDB
	for _, s := range targets.All() {
		if s.Package == pkg {
			db = s.DB
		}
	}
	need(t, srv, db)
	targettest.Conformance(t, targettest.Package(pkg), targettest.Server(Endpoint(srv)))
}

// Where returns the targettest.Where of srv's endpoint over net. With no
// server (Main found none installed) it skips t, naming what is missing.
func Where(t testing.TB, srv *servers.Server, db bench.DB, net string) targettest.Where {
	t.Helper()
	need(t, srv, db)
	return targettest.OnServer(db, net, Endpoint(srv))
}

// Endpoint returns the function that gives targettest srv's endpoint over
// a transport.
func Endpoint(srv *servers.Server) func(t testing.TB, net string) bench.Endpoint {
	return func(t testing.TB, net string) bench.Endpoint {
		t.Helper()
		e, err := srv.Endpoint(net)
		if err != nil {
			t.Fatal(err)
		}
		return e.Bench()
	}
}

// need skips t, or fails it under SQLBENCH_SERVERS=1, when Main started no
// server for db.
func need(t testing.TB, srv *servers.Server, db bench.DB) {
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
