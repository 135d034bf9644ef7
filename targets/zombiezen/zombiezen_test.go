package zombiezen_test

import (
	"testing"

	"github.com/sqlbench/sqlbench/targets/targettest"
	_ "github.com/sqlbench/sqlbench/targets/zombiezen"
)

func TestWorkloads(t *testing.T) { targettest.Workloads(t, "zombiezen", targettest.SQLite) }
func TestDetectsWrongData(t *testing.T) {
	targettest.DetectsWrongData(t, "zombiezen", targettest.SQLite)
}

func TestSuiteDetectsWrongData(t *testing.T) {
	targettest.SuiteDetectsWrongData(t, "zombiezen", targettest.SQLite)
}

func TestSuiteEnforcesForeignKeys(t *testing.T) {
	targettest.SuiteEnforcesForeignKeys(t, "zombiezen", targettest.SQLite)
}
