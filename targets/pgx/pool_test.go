package pgx_test

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servertest"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestPoolUnderLoad holds database/sql's pool (through pgx's stdlib) and
// pgxpool to their pool size, counted in pg_stat_activity, and to the
// waits they report when goroutines outnumber their connections.
func TestPoolUnderLoad(t *testing.T) {
	for _, target := range []string{"pgx", "pgxpool"} {
		t.Run(target, func(t *testing.T) {
			targettest.PoolUnderLoad(t, target, servertest.Where(t, srv, bench.Postgres, "tcp"))
		})
	}
}
