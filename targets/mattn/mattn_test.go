package mattn_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/mattn"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

func TestWorkloads(t *testing.T)        { targettest.Workloads(t, "mattn", targettest.SQLite) }
func TestDetectsWrongData(t *testing.T) { targettest.DetectsWrongData(t, "mattn", targettest.SQLite) }

// BenchmarkFidelity compares sqlbench's SimpleQueryRow with a hand-written
// loop: go test -bench Fidelity -count 10 ./targets/mattn | benchstat -col /impl -
func BenchmarkFidelity(b *testing.B) { targettest.Fidelity(b, "mattn", "sqlite3", "file:") }

func TestSuiteDetectsWrongData(t *testing.T) {
	targettest.SuiteDetectsWrongData(t, "mattn", targettest.SQLite)
}

func TestSuiteEnforcesForeignKeys(t *testing.T) {
	targettest.SuiteEnforcesForeignKeys(t, "mattn", targettest.SQLite)
}

func TestDetectsWrongBulkData(t *testing.T) {
	targettest.DetectsWrongBulkData(t, "mattn", targettest.SQLite)
}
