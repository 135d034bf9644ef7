package targets

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestCatalogEntriesAreComplete walks the catalogue: every target has a
// unique name and result keys, a known database and API, a description, and
// (unless it cannot be obtained) a package under targets/ or, for a JDBC
// target, none. Whether its runner links it, with which capabilities, the
// runner says itself (TestRunnersDeclareTheirCatalogueTargets).
func TestCatalogEntriesAreComplete(t *testing.T) {
	names, keys := map[string]bool{}, map[string]bool{}
	for _, s := range All() {
		if s.Name == "" || s.Driver == "" || s.Desc == "" || s.Group == "" || (s.Module == "" && s.DB.SQL()) ||
			(s.Package == "" && !s.JVM) {
			t.Errorf("incomplete entry %+v", s)
		}
		if names[s.Name] || keys[s.Key()] {
			t.Errorf("duplicate target %s (%s)", s.Name, s.Key())
		}
		names[s.Name], keys[s.Key()] = true, true
		if _, err := bench.ParseDB(string(s.DB)); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if s.API != APISQL && s.API != APINative && s.API != APIJDBC && (s.API != APIRaw || s.DB.SQL()) &&
			(s.API != APIProto || !s.DB.Server() || !s.Floor) {
			t.Errorf("%s: unknown API %q", s.Name, s.API)
		}
		if s.Floor != (s.API == APIProto) || (s.Floor && len(s.Only) == 0) {
			t.Errorf("%s: a protocol floor (Floor, api=%s) and only one, with the workloads it runs (Only)", s.Name,
				APIProto)
		}
		if strings.ContainsAny(s.Driver+s.API, "/= ") {
			t.Errorf("%s: driver and API must be usable as name keys", s.Name)
		}
		if strings.ContainsAny(s.Name+s.Driver, "@+") {
			t.Errorf("%s: '@' and '+' begin a variant's suffix (mattn@v1.14.22, mattn+spin=2us)", s.Name)
		}
		if s.Unobtainable != "" || s.JVM {
			continue
		}
		if _, err := os.Stat(s.Package); err != nil {
			t.Errorf("%s: no package targets/%s", s.Name, s.Package)
		}
	}
}

func TestSelect(t *testing.T) {
	all, err := Select("", []bench.DB{bench.SQLite})
	if err != nil || len(all) != 10 {
		t.Fatalf("Select all sqlite: %d targets, %v; want the 10 SQLite ones", len(all), err)
	}
	for _, s := range all {
		if s.DB != bench.SQLite {
			t.Errorf("Select all sqlite returned %s (%s)", s.Name, s.DB)
		}
	}
	two, err := Select("modernc, mattn,modernc", []bench.DB{bench.SQLite})
	if err != nil || len(two) != 2 || two[0].Name != "modernc" || two[1].Name != "mattn" {
		t.Fatalf("Select named: %v, %v", two, err)
	}
	if _, err := Select("mattn", []bench.DB{bench.Postgres}); err == nil {
		t.Error("a SQLite target was selected for postgres")
	}
	if _, err := Select("nope", []bench.DB{bench.SQLite}); err == nil || !strings.Contains(err.Error(), "valid: ") {
		t.Errorf("unknown target: %v", err)
	}
}

// TestSpinOf: a spin variant keeps its base's runner and opener, a version
// variant's too, and is named by its label.
func TestSpinOf(t *testing.T) {
	mattn, _ := Lookup("mattn")
	s := SpinOf(mattn, 2000, "2us")
	if s.Name != "mattn+spin=2us" || s.Driver != "mattn+spin=2us" || s.Group != "mattn" || s.Opener() != "mattn" ||
		s.Version != "" || s.Spin != 2000 {
		t.Errorf("SpinOf(mattn) = %+v", s)
	}
	v := SpinOf(VariantOf(mattn, "v1.14.22", "v1.14.22"), 2000, "2us")
	if v.Name != "mattn@v1.14.22+spin=2us" || v.Group != "mattn@v1.14.22" || v.Opener() != "mattn" ||
		v.Version != "v1.14.22" {
		t.Errorf("SpinOf(mattn@v1.14.22) = %+v", v)
	}
}

func TestRunsOver(t *testing.T) {
	tcpOnly := Spec{Name: "t", Nets: []string{"tcp"}}
	any, _ := Lookup("mysql")
	if !tcpOnly.RunsOver("tcp") || tcpOnly.RunsOver("unix") || !any.RunsOver("unix") || !any.RunsOver("") {
		t.Error("RunsOver does not follow Nets")
	}
}

// TestAliases: the names a user sees for a target in result names and
// other tools select it, where they name no other target.
func TestAliases(t *testing.T) {
	for alias, want := range map[string]string{
		"xerial": "jdbc-sqlite", "connectorj": "jdbc-mysql", "pgjdbc": "jdbc-postgres", "mariadb-java": "jdbc-mariadb",
		"go-sql-driver": "mysql", "driver=xerial/api=jdbc": "jdbc-sqlite", "pgx/native": "pgx-native",
		"ncruces/sql": "ncruces", "mattn": "mattn",
	} {
		if s, ok := Lookup(alias); !ok || s.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", alias, s.Name, ok, want)
		}
	}
	for _, s := range All() {
		for _, a := range s.Aliases() {
			if o, ok := Lookup(a); !ok || o.Name != s.Name {
				t.Errorf("alias %q of %s looks up %q", a, s.Name, o.Name)
			}
		}
	}
	mymysql, _ := Lookup("mymysql-native")
	if slices.Contains(mymysql.Aliases(), "mymysql") {
		t.Error("mymysql-native has the alias mymysql, another target's name")
	}
	got, err := Select("xerial,jdbc-sqlite", []bench.DB{bench.SQLite})
	if err != nil || len(got) != 1 || got[0].Name != "jdbc-sqlite" {
		t.Errorf("Select(xerial,jdbc-sqlite) = %v, %v", got, err)
	}
}

// TestProtocolFloors: the protocol floors run only the workloads they
// list, and an empty --targets leaves them out.
func TestProtocolFloors(t *testing.T) {
	for _, db := range []bench.DB{bench.Postgres, bench.MariaDB} {
		all, err := Select("", []bench.DB{db})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range all {
			if s.Floor {
				t.Errorf("Select all %s returned the protocol floor %s", db, s.Name)
			}
		}
	}
	pg, ok := Lookup("pgproto")
	if !ok || !pg.Floor {
		t.Fatalf("pgproto: %+v", pg)
	}
	my, _ := Lookup("mysqlproto")
	simple, prepared := bench.Workload{Name: "SimpleQueryRow"}, bench.Workload{Name: "PreparedQueryRow"}
	if !pg.Runs(simple) || !pg.Runs(prepared) || !my.Runs(simple) || !my.Runs(prepared) ||
		my.Runs(bench.Workload{Name: "AutoQueryRow"}) ||
		pg.Runs(bench.Workload{Name: "SuiteSimpleQuery"}) || my.Runs(bench.Workload{Name: "SuiteSimpleQuery"}) {
		t.Error("the protocol floors run other workloads than those they implement")
	}
	if !my.Runs(bench.Workload{Name: "SimpleDo", Only: []bench.DB{bench.MariaDB}}) ||
		pg.Runs(bench.Workload{Name: "SimpleDo", Only: []bench.DB{bench.MariaDB}}) {
		t.Error("SimpleDo runs on MariaDB's protocol floor only")
	}
	if s, err := Select("pgproto,pgx", []bench.DB{bench.Postgres}); err != nil || len(s) != 2 {
		t.Errorf("Select(pgproto,pgx) = %v, %v", s, err)
	}
}
