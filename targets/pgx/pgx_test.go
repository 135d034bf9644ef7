package pgx_test

import (
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	_ "github.com/sqlbench/sqlbench/targets/pgx"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

var srv *servers.Server

func TestMain(m *testing.M) { os.Exit(targettest.WithServer(m, servers.KindPostgres, &srv)) }

func TestOnPostgres(t *testing.T) {
	targettest.ServerSuite(t, srv, bench.Postgres, "pgx", "pgx-native")
}

func TestDetectsCorruptedResults(t *testing.T) {
	for _, target := range []string{"pgx", "pgx-native"} {
		t.Run(target, func(t *testing.T) {
			targettest.DetectsCorruptedResults(t, target, targettest.OnServer(t, srv, bench.Postgres, "tcp"))
		})
	}
}

func TestDetectsWrongBulkData(t *testing.T) {
	targettest.DetectsWrongBulkData(t, "pgx-native", targettest.OnServer(t, srv, bench.Postgres, "tcp"))
}
