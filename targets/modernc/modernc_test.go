package modernc_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/modernc"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestConformance runs the shared checks on every target of this package
// in the catalogue.
func TestConformance(t *testing.T) { targettest.Conformance(t, targettest.Package("modernc")) }

// BenchmarkFidelity compares sqlbench's SimpleQueryRow with a hand-written
// loop: go test -bench Fidelity -count 10 ./targets/modernc | benchstat -col /impl -
func BenchmarkFidelity(b *testing.B) { targettest.Fidelity(b, "modernc", "sqlite", "file:") }
