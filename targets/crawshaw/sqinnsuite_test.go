package crawshaw_test

import (
	"testing"

	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestSqinnSuiteReadsAsPublished checks the Sqinn-Go suite's reads on
// crawshaw against the published crawshaw program's
// (cvilsmeier/sqinn-go-bench at 8bbb4e0, cmd/bench-craw/craw.go): every
// read takes its statement from the connection's cache (conn.Prepare,
// conn.Prep, sqlitex.Exec), one a query, each goroutine of the concurrent
// test one on its own connection; none compiles a fresh statement.
func TestSqinnSuiteReadsAsPublished(t *testing.T) {
	targettest.ReadsFromTheCache(t, "crawshaw", "sqinn", "SqinnConcurrent", "goroutines")
}
