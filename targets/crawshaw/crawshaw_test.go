package crawshaw_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/crawshaw"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

func TestWorkloads(t *testing.T)        { targettest.Workloads(t, "crawshaw") }
func TestDetectsWrongData(t *testing.T) { targettest.DetectsWrongData(t, "crawshaw") }
