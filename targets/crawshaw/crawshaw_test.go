package crawshaw_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/crawshaw"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestConformance runs the shared checks on every target of this package
// in the catalogue.
func TestConformance(t *testing.T) { targettest.Conformance(t, targettest.Package("crawshaw")) }

// TestCachedQueries checks the reads through crawshaw's statement cache
// (Conn.Prepare) that the suite family makes, as published.
func TestCachedQueries(t *testing.T) { targettest.CachedQueries(t, "crawshaw") }
