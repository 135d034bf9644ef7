package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/journal"
)

// TestCleanFindsTheSessionOfAKilledRun: a session killed before its first
// result leaves a results file of only its header and a journal; clean
// takes the session id from the journal, named or beside the file.
func TestCleanFindsTheSessionOfAKilledRun(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "r.txt")
	if err := os.WriteFile(results, []byte("Unit ns/op Better=lower\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := sessionID(results); err == nil || !strings.Contains(err.Error(), "no journal of a session is at "+filepath.Join(dir, "r.journal")) {
		t.Errorf("a header alone, no journal: %v", err)
	}
	w, err := journal.Create(filepath.Join(dir, "r.journal"), journal.Header{Session: "k7q2zz", Results: results, Runs: 3})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, path := range []string{results, filepath.Join(dir, "r.journal")} {
		if id, err := sessionID(path); err != nil || id != "k7q2zz" {
			t.Errorf("sessionID(%s) = %q, %v; want the journal's k7q2zz", path, id, err)
		}
	}
	if err := os.WriteFile(results, []byte("session-id: a1b2c3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if id, err := sessionID(results); err != nil || id != "a1b2c3" {
		t.Errorf("the results file's own line: %q, %v", id, err)
	}
	// As the writer writes it now: a session fact's comment line.
	bw, err := benchfile.Create(results, benchfile.Overwrite)
	if err != nil {
		t.Fatal(err)
	}
	bw.SetConfig("session-id", "d4e5f6")
	if err := bw.WriteUnits(); err != nil {
		t.Fatal(err)
	}
	bw.Close()
	if id, err := sessionID(results); err != nil || id != "d4e5f6" {
		t.Errorf("the results file's session fact: %q, %v", id, err)
	}
}
