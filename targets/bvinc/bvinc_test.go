package bvinc_test

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets"
	_ "github.com/sqlbench/sqlbench/targets/bvinc"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestConformance runs the shared checks on every target of this package
// in the catalogue.
func TestConformance(t *testing.T) { targettest.Conformance(t, targettest.Package("bvinc")) }

// TestRefusedWorkloadFailsAsTheCatalogueSays runs the workload the catalogue
// keeps from bvinc and expects the failure its reason names: SQLite 3.28's
// limit of 999 parameters a statement.
func TestRefusedWorkloadFailsAsTheCatalogueSays(t *testing.T) {
	const id = "BulkInsert/shape=16x32/path=multirow/args=bytes"
	spec, _ := targets.Lookup("bvinc")
	if !strings.Contains(spec.Refuses[id], "999 parameters") {
		t.Fatalf("the catalogue no longer refuses %s for bvinc: %q", id, spec.Refuses[id])
	}
	w, ok := bench.LookupWorkload(id)
	if !ok {
		t.Fatalf("%s is not registered", id)
	}
	if spec.Runs(w) {
		t.Fatalf("%s is planned on bvinc", id)
	}
	e := targettest.NewEnv(t, "bvinc", targettest.SQLite)
	err := targettest.Run(e, w, 100)
	if err == nil || !strings.Contains(err.Error(), "too many SQL variables") {
		t.Fatalf("%s on bvinc: %v, want SQLite's too many SQL variables", id, err)
	}
}
