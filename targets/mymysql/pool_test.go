package mymysql_test

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servertest"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestPoolUnderLoad holds database/sql's pool (mymysql's godrv) to its
// size, counted in the server's Threads_connected, and to the waits it
// reports when goroutines outnumber its connections.
func TestPoolUnderLoad(t *testing.T) {
	targettest.PoolUnderLoad(t, "mymysql", servertest.Where(t, srv, bench.MariaDB, "tcp"))
}
