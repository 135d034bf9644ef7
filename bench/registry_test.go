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
