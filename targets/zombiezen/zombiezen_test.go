package zombiezen_test

import (
	"testing"

	"github.com/sqlbench/sqlbench/targets/targettest"
	_ "github.com/sqlbench/sqlbench/targets/zombiezen"
)

// TestConformance runs the shared checks on every target of this package
// in the catalogue.
func TestConformance(t *testing.T) { targettest.Conformance(t, "zombiezen", nil) }
