package pq_test

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servertest"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestTypedRows holds the typed family to each target's API: its calls
// inside the clock, the Go types it scans into and binds, and a read that
// fails on a wrong value in any column.
func TestTypedRows(t *testing.T) {
	for _, c := range []struct {
		target  string
		natural bool // scans into Go's own types (database/sql, pgx)
	}{
		{"pq", true},
	} {
		t.Run(c.target, func(t *testing.T) {
			targettest.TypedRows(t, c.target, servertest.Where(t, srv, bench.Postgres, "tcp"), c.natural)
		})
	}
}

// TestTypedOnTheServer counts the typed family's statements on the server
// (targettest.TypedOnTheServer): one unprepared statement a query, one
// transaction of one prepared statement executed a row for the inserts.
func TestTypedOnTheServer(t *testing.T) {
	for _, target := range []string{"pq"} {
		t.Run(target, func(t *testing.T) {
			targettest.TypedOnTheServer(t, target, servertest.Where(t, srv, bench.Postgres, "tcp"))
		})
	}
}
