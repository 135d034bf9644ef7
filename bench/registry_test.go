package bench

import (
	"context"
	"testing"
)

func TestParseDB(t *testing.T) {
	for _, db := range AllDBs() {
		if got, err := ParseDB(string(db)); err != nil || got != db {
			t.Errorf("ParseDB(%q) = %q, %v", db, got, err)
		}
	}
	if _, err := ParseDB("oracle"); err == nil {
		t.Error("ParseDB(oracle) succeeded")
	}
}

func TestDialectPlaceholders(t *testing.T) {
	if p := DialectOf(Postgres).Param(2); p != "$2" {
		t.Errorf("postgres param = %q", p)
	}
	if p := DialectOf(SQLite).Param(2); p != "?" {
		t.Errorf("sqlite param = %q", p)
	}
	for _, db := range AllDBs() {
		if DialectOf(db).NoopExec == "" {
			t.Errorf("%s has no no-op statement", db)
		}
	}
}

func TestRegisterWorkloadRejectsIncompleteEntries(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("an incomplete workload registered without panic")
		}
	}()
	RegisterWorkload(Workload{Name: "Incomplete"})
}

func TestRegisterWorkloadRejectsSiblingsWithOtherSmokeScales(t *testing.T) {
	w := Workload{Name: "SmokeSiblings", Keys: "k=1", Family: "test", Ops: 1, Unit: "ops", Smoke: 0.001,
		Describe: func(Dialect) string { return "" }, Setup: func(Env) error { return nil },
		Begin: func(Env) (Run, error) { return Run{}, nil }, Teardown: func(Env) error { return nil }}
	RegisterWorkload(w)
	w.Keys = "k=2"
	RegisterWorkload(w) // same Smoke: fine
	if got := w.QuickScale(0.01); got != 0.001 {
		t.Errorf("QuickScale = %g, want the workload's Smoke 0.001", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a sibling with another Smoke registered without panic")
		}
	}()
	w.Keys, w.Smoke = "k=3", 0.01
	RegisterWorkload(w)
}

func TestRegisterOpenerKeepsTheDeclaredCapabilitiesSorted(t *testing.T) {
	open := func(context.Context, Config) (Conn, error) { return nil, nil }
	RegisterOpener("registry-test-caps", open, CapLoad, CapBatch)
	RegisterOpener("registry-test-none", open)
	if caps, ok := TargetCaps("registry-test-caps"); !ok || len(caps) != 2 || caps[0] != CapBatch ||
		caps[1] != CapLoad {
		t.Errorf("TargetCaps = %v, %v; want [batch load], true", caps, ok)
	}
	if caps, ok := TargetCaps("registry-test-none"); !ok || len(caps) != 0 {
		t.Errorf("TargetCaps of a target without capabilities = %v, %v", caps, ok)
	}
	if _, ok := TargetCaps("registry-test-absent"); ok {
		t.Error("TargetCaps found a target that never registered")
	}
	defer func() {
		if recover() == nil {
			t.Error("a capability declared twice was accepted")
		}
	}()
	RegisterOpener("registry-test-twice", open, CapPool, CapPool)
}
