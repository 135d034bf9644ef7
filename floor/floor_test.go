package floor

import (
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestKindRegistered checks the floor's place among the databases: parsed
// and known as a kind, not a SQL database, joining server runs that select
// its workloads, and reporting a floor line per target.
func TestKindRegistered(t *testing.T) {
	if db, err := bench.ParseDB("loopback"); err != nil || db != Loopback {
		t.Fatalf("ParseDB(loopback) = %q, %v", db, err)
	}
	if Loopback.SQL() || Loopback.Server() || slices.Contains(bench.AllDBs(), Loopback) ||
		!slices.Contains(bench.KnownDBs(), Loopback) {
		t.Errorf("loopback: SQL %v, server %v, AllDBs %v, KnownDBs %v", Loopback.SQL(), Loopback.Server(),
			bench.AllDBs(), bench.KnownDBs())
	}
	k, ok := bench.LookupKind(Loopback)
	if !ok || k.Family != Family || !k.BoundsServers {
		t.Fatalf("kind %+v, %v: want the floor family, bounding the servers", k, ok)
	}
	if len(k.Config) != 1 || k.Config[0][0] != "floor" || !strings.Contains(k.Config[0][1], "db=loopback") {
		t.Errorf("config lines %q", k.Config)
	}
	if info := k.Info("tcp"); len(info) != 1 || info[0][0] != "tcp-floor" ||
		!strings.HasPrefix(info[0][1], "loopback 127.0.0.1") {
		t.Errorf("info lines %q", info)
	}
}

// TestWorkloadsRunOnTheFloorOnly checks the family: every workload runs on
// Loopback and no SQL database, needs one of the floor's capabilities, and
// is complete enough to register.
func TestWorkloadsRunOnTheFloorOnly(t *testing.T) {
	ws := Workloads()
	if len(ws) != 32 {
		t.Errorf("%d workloads, want 32 (15 TCPSend, 2 TCPRoundTrip, 15 HTTPPost)", len(ws))
	}
	for _, w := range ws {
		if w.Family != Family || !w.RunsOn(Loopback) || (w.Needs != CapWire && w.Needs != CapHTTP) {
			t.Errorf("%s: family %s, runs on loopback %v, needs %q", w.ID(), w.Family, w.RunsOn(Loopback), w.Needs)
		}
		for _, db := range bench.AllDBs() {
			if w.RunsOn(db) {
				t.Errorf("%s runs on %s", w.ID(), db)
			}
		}
		if w.Setup == nil || w.Begin == nil || w.Teardown == nil || w.Describe == nil || w.Unit == "" {
			t.Errorf("%s is incomplete", w.ID())
		}
	}
	if k, _ := bench.LookupKind(Loopback); !k.Joins([]bench.DB{bench.Postgres}, ws[:1]) {
		t.Error("the floor does not join a postgres run of its workloads")
	}
}

// TestBeginNeedsTheRightHandle checks that a floor workload refuses a
// handle without its transport instead of panicking.
func TestBeginNeedsTheRightHandle(t *testing.T) {
	for _, w := range Workloads() {
		if _, err := w.Begin(bench.Env{Handle: closer{}, Warm: 1, N: 1}); err == nil {
			t.Errorf("%s began on a handle that is neither Wire nor Poster", w.ID())
		}
	}
}

// closer is a handle with no transport.
type closer struct{}

func (closer) Close() error { return nil }
