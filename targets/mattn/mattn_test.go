package mattn_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/mattn"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestConformance runs the shared checks on every target of this package
// in the catalogue.
func TestConformance(t *testing.T) { targettest.Conformance(t, targettest.Package("mattn")) }

// BenchmarkFidelity compares sqlbench's SimpleQueryRow with a hand-written
// loop: go test -bench Fidelity -count 10 ./targets/mattn | benchstat -col /impl -
func BenchmarkFidelity(b *testing.B) { targettest.Fidelity(b, "mattn", "sqlite3", "file:") }
