package mymysql_test

import (
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/servertest"
	_ "github.com/sqlbench/sqlbench/targets/mymysql"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

var srv *servers.Server

func TestMain(m *testing.M) { os.Exit(servertest.Main(m, servers.KindMariaDB, &srv)) }

// TestConformance runs the shared checks on every target of this package
// in the catalogue, on a throwaway server.
func TestConformance(t *testing.T) { servertest.Conformance(t, "mymysql", srv) }

// TestSQLBenchmarkCallsAsPublished holds the SQL-Benchmark families to the
// published programs' calls, on the server's counters.
func TestSQLBenchmarkCallsAsPublished(t *testing.T) {
	targettest.SQLBenchmarkCallsAsPublished(t, "mymysql", servertest.Where(t, srv, bench.MariaDB, "tcp"))
}
