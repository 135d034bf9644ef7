package bench

import (
	"slices"
	"testing"
)

// TestLoopbackRunsOnlyWhatNamesIt checks the transport floor's place among
// the databases: parsed and known, but not a SQL database, so a workload
// without Only never runs on it.
func TestLoopbackRunsOnlyWhatNamesIt(t *testing.T) {
	if db, err := ParseDB("loopback"); err != nil || db != Loopback {
		t.Fatalf("ParseDB(loopback) = %q, %v", db, err)
	}
	if slices.Contains(AllDBs(), Loopback) || !slices.Contains(KnownDBs(), Loopback) {
		t.Errorf("AllDBs %v, KnownDBs %v: want loopback only in KnownDBs", AllDBs(), KnownDBs())
	}
	sql := Workload{Name: "SQL"}
	floor := Workload{Name: "Floor", Only: []DB{Loopback}}
	for _, db := range AllDBs() {
		if !sql.RunsOn(db) || floor.RunsOn(db) {
			t.Errorf("on %s: SQL workload %v, floor workload %v", db, sql.RunsOn(db), floor.RunsOn(db))
		}
	}
	if sql.RunsOn(Loopback) || !floor.RunsOn(Loopback) {
		t.Error("on loopback: want the floor workload only")
	}
	if Loopback.Server() || !MariaDB.Server() || SQLite.Server() {
		t.Error("Server: want mariadb and postgres only")
	}
	if big := (Workload{MinScale: 1}); big.PlannedAt(0.2) || !big.PlannedAt(1) {
		t.Error("PlannedAt ignores MinScale")
	}
}
