package pq_test

import (
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	_ "github.com/sqlbench/sqlbench/targets/pq"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

var srv *servers.Server

func TestMain(m *testing.M) { os.Exit(targettest.WithServer(m, servers.KindPostgres, &srv)) }

func TestOnPostgres(t *testing.T) {
	targettest.ServerSuite(t, srv, bench.Postgres, "pq")
}

func TestDetectsWrongBulkData(t *testing.T) {
	targettest.DetectsWrongBulkData(t, "pq", targettest.OnServer(t, srv, bench.Postgres, "tcp"))
}
