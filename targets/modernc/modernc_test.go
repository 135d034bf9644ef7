package modernc_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/modernc"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

func TestWorkloads(t *testing.T)        { targettest.Workloads(t, "modernc", targettest.SQLite) }
func TestDetectsWrongData(t *testing.T) { targettest.DetectsWrongData(t, "modernc", targettest.SQLite) }

func TestDetectsCorruptedResults(t *testing.T) {
	targettest.DetectsCorruptedResults(t, "modernc", targettest.SQLite)
}

// BenchmarkFidelity compares sqlbench's SimpleQueryRow with a hand-written
// loop: go test -bench Fidelity -count 10 ./targets/modernc | benchstat -col /impl -
func BenchmarkFidelity(b *testing.B) { targettest.Fidelity(b, "modernc", "sqlite", "file:") }
