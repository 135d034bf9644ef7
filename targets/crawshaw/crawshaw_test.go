package crawshaw_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/crawshaw"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

func TestWorkloads(t *testing.T) { targettest.Workloads(t, "crawshaw", targettest.SQLite) }
func TestDetectsWrongData(t *testing.T) {
	targettest.DetectsWrongData(t, "crawshaw", targettest.SQLite)
}
