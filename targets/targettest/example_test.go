package targettest_test

import (
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// A driver package's test checks its targets in one call. A package of
// sqlbench's own names itself (Package("mattn")); one outside sqlbench
// names the targets it registered with bench.RegisterOpener, and their
// database. (Conformance needs the *testing.T of a test, so this example
// is compiled, not run; testdata/exampledriver is a whole module doing it.)
func ExampleConformance() {
	var t *testing.T // the one TestConformance(t *testing.T) is given
	targettest.Conformance(t, targettest.Targets(bench.SQLite, "example-sqlite3"))
}

// The targets of a server database are checked on a server the test
// names: here one a CI job started, which listens on TCP only, so the
// checks over the unix socket skip.
func ExampleServer() {
	var t *testing.T // the one TestConformance(t *testing.T) is given
	endpoint := func(t testing.TB, net string) bench.Endpoint {
		if net != "tcp" {
			t.Skip("the CI server listens on TCP only")
		}
		return bench.Endpoint{Net: "tcp", Addr: "127.0.0.1:5432", User: "bench",
			Password: os.Getenv("PGPASSWORD"), Database: "bench"}
	}
	targettest.Conformance(t, targettest.Targets(bench.Postgres, "example-pgx"), targettest.Server(endpoint))
}
