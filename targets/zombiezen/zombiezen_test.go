package zombiezen_test

import (
	"testing"

	"github.com/sqlbench/sqlbench/targets/targettest"
	_ "github.com/sqlbench/sqlbench/targets/zombiezen"
)

// TestConformance runs the shared checks on every target of this package
// in the catalogue.
func TestConformance(t *testing.T) { targettest.Conformance(t, targettest.Package("zombiezen")) }

// TestCachedQueries checks the reads through zombiezen's statement cache
// (Conn.Prepare) that the suite family makes, as published.
func TestCachedQueries(t *testing.T) { targettest.CachedQueries(t, "zombiezen") }

// TestGoSQLiteBenchReadsAsPublished checks the go-sqlite-bench suite's
// reads on zombiezen against the published zombie adapter's
// (cvilsmeier/go-sqlite-bench, cmd/bench-zombie): every read takes its
// statement from the connection's cache (conn.Prepare), one a query, each
// client of the concurrent test one on its own connection, opened in the
// round.
func TestGoSQLiteBenchReadsAsPublished(t *testing.T) {
	targettest.ReadsFromTheCache(t, "zombiezen", "suite", "SuiteConcurrent", "conns", false)
}
