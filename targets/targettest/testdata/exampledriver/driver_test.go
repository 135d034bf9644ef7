package exampledriver_test

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/targettest"

	_ "example.com/exampledriver"
)

// TestConformance runs sqlbench's shared checks on the target this
// package registers.
func TestConformance(t *testing.T) {
	targettest.Conformance(t, targettest.Targets(bench.SQLite, "example-sqlite3"))
}
