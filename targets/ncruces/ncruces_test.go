package ncruces_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/ncruces"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

func TestWorkloads(t *testing.T) {
	for _, target := range []string{"ncruces", "ncruces-native"} {
		t.Run(target, func(t *testing.T) { targettest.Workloads(t, target, targettest.SQLite) })
	}
}

func TestDetectsWrongData(t *testing.T) {
	for _, target := range []string{"ncruces", "ncruces-native"} {
		t.Run(target, func(t *testing.T) { targettest.DetectsWrongData(t, target, targettest.SQLite) })
	}
}
