package bench

import "testing"

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
