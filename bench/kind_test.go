package bench

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// testKind is a kind registered by this package's tests only.
const testKind DB = "testkind"

func init() {
	RegisterKind(Kind{DB: testKind, Family: "testfamily", BoundsServers: true})
	RegisterHandleOpener("testtarget", func(context.Context, Config) (Handle, error) { return nil, nil })
}

// TestKindRunsOnlyWhatNamesIt checks a registered kind's place among the
// databases: parsed and known, but not a SQL database, so a workload
// without Only never runs on it, and it joins a server run only when a
// workload of its own is selected.
func TestKindRunsOnlyWhatNamesIt(t *testing.T) {
	if db, err := ParseDB(string(testKind)); err != nil || db != testKind {
		t.Fatalf("ParseDB(%s) = %q, %v", testKind, db, err)
	}
	if _, err := ParseDB("oracle"); err == nil ||
		!strings.Contains(err.Error(), "sqlite, mariadb, postgres, "+string(testKind)) {
		t.Errorf("ParseDB(oracle): %v, want the valid names, the kind's last", err)
	}
	if slices.Contains(AllDBs(), testKind) || !slices.Contains(KnownDBs(), testKind) {
		t.Errorf("AllDBs %v, KnownDBs %v: want the kind only in KnownDBs", AllDBs(), KnownDBs())
	}
	if k, ok := LookupKind(testKind); !ok || k.Family != "testfamily" {
		t.Errorf("LookupKind = %+v, %v", k, ok)
	}
	if _, ok := LookupKind(SQLite); ok {
		t.Error("SQLite is a kind")
	}
	sql := Workload{Name: "SQL"}
	own := Workload{Name: "Own", Only: []DB{testKind}}
	for _, db := range AllDBs() {
		if !db.SQL() || !sql.RunsOn(db) || own.RunsOn(db) {
			t.Errorf("on %s: SQL %v, SQL workload %v, the kind's workload %v", db, db.SQL(), sql.RunsOn(db),
				own.RunsOn(db))
		}
	}
	if testKind.SQL() || sql.RunsOn(testKind) || !own.RunsOn(testKind) {
		t.Error("on the kind: want the kind's workload only")
	}
	if testKind.Server() || !MariaDB.Server() || SQLite.Server() {
		t.Error("Server: want mariadb and postgres only")
	}
	if d := DialectOf(testKind); d.DB != testKind || d.NoopExec != "" || d.Setup != nil {
		t.Errorf("DialectOf(kind) = %+v, want no SQL", d)
	}
	if big := (Workload{MinScale: 1}); big.PlannedAt(0.2) || !big.PlannedAt(1) {
		t.Error("PlannedAt ignores MinScale")
	}
}

func TestKindJoins(t *testing.T) {
	k, _ := LookupKind(testKind)
	own, sql := Workload{Name: "Own", Only: []DB{testKind}}, Workload{Name: "SQL"}
	for _, c := range []struct {
		dbs  []DB
		ws   []Workload
		want bool
	}{
		{[]DB{MariaDB}, []Workload{sql, own}, true},
		{[]DB{SQLite, Postgres}, []Workload{own}, true},
		{[]DB{MariaDB}, []Workload{sql}, false},           // none of its workloads
		{[]DB{SQLite}, []Workload{own}, false},            // no server to bound
		{[]DB{MariaDB, testKind}, []Workload{own}, false}, // named already
	} {
		if got := k.Joins(c.dbs, c.ws); got != c.want {
			t.Errorf("Joins(%v, %d workloads) = %v, want %v", c.dbs, len(c.ws), got, c.want)
		}
	}
	k.BoundsServers = false
	if k.Joins([]DB{MariaDB}, []Workload{own}) {
		t.Error("a kind that bounds no server joins a server run")
	}
}

func TestRegisterKindAndHandleOpener(t *testing.T) {
	if _, ok := LookupHandleOpener("testtarget"); !ok || !slices.Contains(Openers(), "testtarget") {
		t.Errorf("testtarget: handle opener registered %v, in Openers %v", ok, Openers())
	}
	if _, ok := LookupOpener("testtarget"); ok {
		t.Error("testtarget has a SQL opener")
	}
	for name, register := range map[string]func(){
		"a SQL database":     func() { RegisterKind(Kind{DB: SQLite, Family: "x"}) },
		"no family":          func() { RegisterKind(Kind{DB: "other"}) },
		"a kind twice":       func() { RegisterKind(Kind{DB: testKind, Family: "x"}) },
		"a SQL opener twice": func() { RegisterOpener("testtarget", nil) },
		"a handle opener twice": func() {
			RegisterHandleOpener("testtarget", nil)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("registering %s did not panic", name)
				}
			}()
			register()
		}()
	}
}
