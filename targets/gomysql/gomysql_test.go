package gomysql_test

import (
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	_ "github.com/sqlbench/sqlbench/targets/gomysql"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

var srv *servers.Server

func TestMain(m *testing.M) { os.Exit(targettest.WithServer(m, servers.KindMariaDB, &srv)) }

func TestOnMariaDB(t *testing.T) {
	targettest.ServerSuite(t, srv, bench.MariaDB, "go-mysql")
}

func TestDetectsCorruptedResults(t *testing.T) {
	targettest.DetectsCorruptedResults(t, "go-mysql", targettest.OnServer(t, srv, bench.MariaDB, "tcp"))
}

func TestDetectsWrongBulkData(t *testing.T) {
	targettest.DetectsWrongBulkData(t, "go-mysql", targettest.OnServer(t, srv, bench.MariaDB, "tcp"))
}
