package zombiezen_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/zombiezen"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

func TestWorkloads(t *testing.T)        { targettest.Workloads(t, "zombiezen", targettest.SQLite) }
func TestDetectsWrongData(t *testing.T) { targettest.DetectsWrongData(t, "zombiezen", targettest.SQLite) }
