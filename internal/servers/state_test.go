package servers

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestStateRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if got, err := LoadStates(dir); err != nil || len(got) != 0 {
		t.Fatalf("LoadStates of a missing dir = %v, %v", got, err)
	}
	a := &Server{
		Kind: KindMariaDB, Profile: ProfileSeed, Version: "10.11.19-MariaDB", Host: "127.0.0.1",
		Port: 40001, Socket: "/tmp/sqb-1/mysqld.sock", User: "bench", Password: "abcdefghijklmnopqrstuvwx",
		Database: "bench", Dir: "/tmp/sqb-1", PID: 1234, Detached: true,
		Vars:  map[string]string{"max_connections": "3000"},
		Ready: 1500 * time.Millisecond, Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
	b := &Server{Kind: KindPostgres, Profile: ProfileFast, Port: 40002, Dir: "/tmp/sqb-2", Password: "x"}
	for _, s := range []*Server{a, b} {
		if err := SaveState(dir, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := SaveState(dir, a); err != nil { // replacing is fine
		t.Fatal(err)
	}
	for _, name := range []string{"sqb-1.json", "sqb-2.json"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", name, fi.Mode().Perm())
		}
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir: %v, %v; want mode 0700", fi.Mode().Perm(), err)
	}
	got, err := LoadStates(dir)
	if err != nil || len(got) != 2 {
		t.Fatalf("LoadStates = %v, %v", got, err)
	}
	if !reflect.DeepEqual(got[0], a) || !reflect.DeepEqual(got[1], b) {
		t.Errorf("round trip changed the servers:\n got %+v\n     %+v\nwant %+v\n     %+v", got[0], got[1], a, b)
	}
	// A damaged file is reported without hiding the others.
	if err := os.WriteFile(filepath.Join(dir, "sqb-3.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err = LoadStates(dir)
	if err == nil || len(got) != 2 {
		t.Errorf("LoadStates with a damaged file = %d servers, %v; want 2 and an error", len(got), err)
	}
	os.Remove(filepath.Join(dir, "sqb-3.json"))
	for _, s := range []*Server{a, b, a} { // the second removal of a is not an error
		if err := RemoveState(dir, s); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := LoadStates(dir); err != nil || len(got) != 0 {
		t.Errorf("after RemoveState: %v, %v", got, err)
	}
	if err := SaveState(dir, &Server{}); err == nil {
		t.Error("SaveState of a server without a directory succeeded")
	}
	if d := DefaultStateDir(); !filepath.IsAbs(d) || filepath.Base(d) != "servers" {
		t.Errorf("DefaultStateDir() = %q", d)
	}
}
