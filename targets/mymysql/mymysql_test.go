package mymysql_test

import (
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	_ "github.com/sqlbench/sqlbench/targets/mymysql"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

var srv *servers.Server

func TestMain(m *testing.M) { os.Exit(targettest.WithServer(m, servers.KindMariaDB, &srv)) }

func TestOnMariaDB(t *testing.T) {
	targettest.ServerSuite(t, srv, bench.MariaDB, "mymysql", "mymysql-native")
}

func TestSQLBenchmarkCallsAsPublished(t *testing.T) {
	targettest.SQLBenchmarkCallsAsPublished(t, "mymysql", targettest.OnServer(t, srv, bench.MariaDB, "tcp"))
}
