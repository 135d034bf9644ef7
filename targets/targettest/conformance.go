package targettest

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/targets"
)

// Conformance runs every shared check on each target the catalogue says
// the driver package pkg implements (Spec.Package, its directory under
// targets/): a driver's test is this one call, its targets and database
// taken from the catalogue. SQLite targets run in temporary databases;
// MariaDB and PostgreSQL ones on srv, the server WithServer started (nil
// for SQLite): ServerSuite over TCP and the unix socket, then the
// corruption checks over TCP. Each check runs only the workloads the
// target runs (Spec.Runs).
func Conformance(t *testing.T, pkg string, srv *servers.Server) {
	var names []string
	var db bench.DB
	for _, s := range targets.All() {
		if s.Package == pkg && !s.JVM {
			names, db = append(names, s.Name), s.DB
		}
	}
	if len(names) == 0 {
		t.Fatalf("no target of package %s in the catalogue", pkg)
	}
	if db.Server() {
		ServerSuite(t, srv, db, names...)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			where := SQLite
			if db.Server() {
				where = OnServer(t, srv, db, "tcp")
			} else {
				t.Run("Workloads", func(t *testing.T) { Workloads(t, name, where) })
				t.Run("DetectsWrongData", func(t *testing.T) { DetectsWrongData(t, name, where) })
				t.Run("SuiteDetectsWrongData", func(t *testing.T) { SuiteDetectsWrongData(t, name, where) })
				t.Run("SuiteEnforcesForeignKeys", func(t *testing.T) { SuiteEnforcesForeignKeys(t, name, where) })
			}
			t.Run("DetectsCorruptedResults", func(t *testing.T) { DetectsCorruptedResults(t, name, where) })
			t.Run("DetectsWrongBulkData", func(t *testing.T) { DetectsWrongBulkData(t, name, where) })
		})
	}
}
