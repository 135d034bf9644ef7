package pq_test

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servertest"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestPoolUnderLoad holds database/sql's pool (lib/pq) to its size, counted
// in pg_stat_activity, and to the waits it reports when goroutines
// outnumber its connections.
func TestPoolUnderLoad(t *testing.T) {
	targettest.PoolUnderLoad(t, "pq", servertest.Where(t, srv, bench.Postgres, "tcp"))
}
