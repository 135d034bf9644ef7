package targettest

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets"
)

// An Option says which targets Conformance checks and where.
type Option func(*config)

// config is what Conformance's options set.
type config struct {
	names    []string
	db       bench.DB
	pkg      string
	endpoint func(t testing.TB, net string) bench.Endpoint
}

// Package selects the targets sqlbench's catalogue says the driver package
// pkg implements (targets.Spec.Package, its directory under targets/).
func Package(pkg string) Option {
	return func(c *config) { c.pkg = pkg }
}

// Targets selects targets by the names their package registered them
// under (bench.RegisterOpener), speaking db: the way to check a driver
// package outside sqlbench's catalogue. Each runs the workloads of db that
// need no capability it did not register.
func Targets(db bench.DB, names ...string) Option {
	return func(c *config) { c.db, c.names = db, append(c.names, names...) }
}

// Server gives the targets of a server database their server: endpoint
// returns where it listens over net, "tcp" or "unix" (it may skip t for a
// transport the server lacks). Without it the checks of a server target
// skip.
func Server(endpoint func(t testing.TB, net string) bench.Endpoint) Option {
	return func(c *config) { c.endpoint = endpoint }
}

// OnServer returns the Where of a server of db, reached over net at the
// endpoint endpoint returns for the test.
func OnServer(db bench.DB, net string, endpoint func(t testing.TB, net string) bench.Endpoint) Where {
	return func(t testing.TB) bench.Config {
		return bench.Config{DB: db, Server: endpoint(t, net)}
	}
}

// Conformance runs every shared check on the targets its options select
// (Package or Targets): a driver package's test is this one call. SQLite
// targets run in temporary databases; the targets of a server database on
// the server Server gives, over TCP and the unix socket (the workloads,
// wrong data, a wrong password), then the corruption checks over TCP. Each
// check runs only the workloads the target runs (targets.Spec.Runs).
func Conformance(t *testing.T, opts ...Option) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	names, db := c.names, c.db
	if c.pkg != "" {
		for _, s := range targets.All() {
			if s.Package == c.pkg && !s.JVM {
				names, db = append(names, s.Name), s.DB
			}
		}
	}
	if len(names) == 0 {
		t.Fatalf("no targets to check: no target of package %q in the catalogue, none named with Targets", c.pkg)
	}
	if db.Server() && c.endpoint == nil {
		t.Skipf("%s targets %s: no server (targettest.Server)", db, strings.Join(names, ", "))
	}
	if db.Server() {
		serverSuite(t, db, c.endpoint, names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			where := SQLite
			if db.Server() {
				where = OnServer(db, "tcp", c.endpoint)
			} else {
				t.Run("Workloads", func(t *testing.T) { Workloads(t, name, where) })
				t.Run("DetectsWrongData", func(t *testing.T) { DetectsWrongData(t, name, where) })
				t.Run("SuiteDetectsWrongData", func(t *testing.T) { SuiteDetectsWrongData(t, name, where) })
				t.Run("SuiteEnforcesForeignKeys", func(t *testing.T) { SuiteEnforcesForeignKeys(t, name, where) })
			}
			t.Run("DetectsCorruptedResults", func(t *testing.T) { DetectsCorruptedResults(t, name, where) })
			t.Run("DetectsWrongBulkData", func(t *testing.T) { DetectsWrongBulkData(t, name, where) })
		})
	}
}

// serverSuite checks targets of db against the server at endpoint over TCP
// and the unix socket: every workload runs and verifies, corrupted data
// fails the reading workloads, the suite's foreign keys are enforced, and
// a wrong password is an error that does not carry the password.
func serverSuite(t *testing.T, db bench.DB, endpoint func(testing.TB, string) bench.Endpoint, names []string) {
	for _, target := range names {
		for _, net := range []string{"tcp", "unix"} {
			where := OnServer(db, net, endpoint)
			t.Run(target+"/"+net, func(t *testing.T) {
				t.Run("Workloads", func(t *testing.T) { Workloads(t, target, where) })
				t.Run("DetectsWrongData", func(t *testing.T) { DetectsWrongData(t, target, where) })
				t.Run("SuiteDetectsWrongData", func(t *testing.T) { SuiteDetectsWrongData(t, target, where) })
				t.Run("SuiteEnforcesForeignKeys", func(t *testing.T) { SuiteEnforcesForeignKeys(t, target, where) })
				t.Run("WrongPassword", func(t *testing.T) { wrongPassword(t, target, where) })
			})
		}
	}
}

// wrongPassword expects target to refuse a wrong password at where with an
// error that does not carry it.
func wrongPassword(t *testing.T, target string, where Where) {
	cfg := where(t)
	cfg.Server.Password = "not-" + cfg.Server.Password
	open, ok := bench.LookupOpener(target)
	if !ok {
		t.Fatalf("target %q is not registered", target)
	}
	c, err := open(context.Background(), cfg)
	if err == nil {
		c.Close()
		t.Fatal("a wrong password was accepted")
	}
	if strings.Contains(err.Error(), cfg.Server.Password) {
		t.Errorf("the error carries the password: %v", err)
	}
}

// lookup returns target's entry in the catalogue or, for a target outside
// it, one made of what its package registered (bench.TargetCaps) and the
// database where gives.
func lookup(t testing.TB, target string, where Where) targets.Spec {
	t.Helper()
	if s, ok := targets.Lookup(target); ok {
		return s
	}
	caps, ok := bench.TargetCaps(target)
	if !ok {
		t.Fatalf("target %q is neither in the catalogue nor registered", target)
	}
	return targets.Spec{Name: target, DB: where(t).DB, Caps: caps}
}
