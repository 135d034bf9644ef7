package sqinn_test

import (
	"errors"
	"testing"

	"github.com/sqlbench/sqlbench/targets/internal/targettest"
	"github.com/sqlbench/sqlbench/targets/sqinn"
)

// needSqinn skips the test when no sqinn executable is here: no registry
// this project uses ships one (it is a C program, released as binaries at
// github.com/cvilsmeier/sqinn).
func needSqinn(t *testing.T) {
	t.Helper()
	if _, err := sqinn.Executable(); err != nil {
		t.Skip(err)
	}
}

func TestExecutableSaysWhatIsMissing(t *testing.T) {
	t.Setenv(sqinn.PathEnv, "/nonexistent/sqinn")
	_, err := sqinn.Executable()
	if !errors.Is(err, sqinn.ErrNoExecutable) {
		t.Fatalf("Executable with %s pointing nowhere: %v, want ErrNoExecutable", sqinn.PathEnv, err)
	}
}

func TestWorkloads(t *testing.T) {
	needSqinn(t)
	targettest.Workloads(t, "sqinn", targettest.SQLite)
}

func TestDetectsWrongData(t *testing.T) {
	needSqinn(t)
	targettest.DetectsWrongData(t, "sqinn", targettest.SQLite)
}

func TestDetectsWrongBulkData(t *testing.T) {
	needSqinn(t)
	targettest.DetectsWrongBulkData(t, "sqinn", targettest.SQLite)
}

func TestSuiteDetectsWrongData(t *testing.T) {
	needSqinn(t)
	targettest.SuiteDetectsWrongData(t, "sqinn", targettest.SQLite)
}

func TestSuiteEnforcesForeignKeys(t *testing.T) {
	needSqinn(t)
	targettest.SuiteEnforcesForeignKeys(t, "sqinn", targettest.SQLite)
}
