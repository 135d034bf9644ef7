package session

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// TestResumeTakesThePlaceOfItsOwnResultsOnly: --resume reads the header of
// the results file the journal names and refuses one another session wrote;
// its own, or none yet, it takes the place of.
func TestResumeTakesThePlaceOfItsOwnResultsOnly(t *testing.T) {
	dir := t.TempDir()
	write := func(name, id string) string {
		path := filepath.Join(dir, name)
		w, err := benchfile.Create(path, benchfile.Exclusive)
		if err != nil {
			t.Fatal(err)
		}
		benchfile.Header{Pin: "none", TimingThread: "auto", Version: "v", Command: "sqlbench run", Count: 6, Slices: 5,
			Scale: 0.1, SessionID: id}.Write(w)
		if err := w.WriteUnits(); err != nil {
			t.Fatal(err)
		}
		if err := w.Write(&benchfmt.Result{Name: benchfmt.Name("SimpleQuery/db=sqlite/driver=mattn/api=sql"), Iters: 1,
			Values: []benchfmt.Value{{Value: 1, Unit: "ns/op"}}}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if err := checkResults(write("own.txt", "abc123"), "abc123"); err != nil {
		t.Errorf("its own results: %v", err)
	}
	if err := checkResults(filepath.Join(dir, "none.txt"), "abc123"); err != nil {
		t.Errorf("no results yet: %v", err)
	}
	err := checkResults(write("other.txt", "zzz999"), "abc123")
	if _, ok := err.(InputError); !ok || !strings.Contains(err.Error(), "session zzz999, not of session abc123") {
		t.Errorf("another session's results: %v, want an InputError naming both sessions", err)
	}
}
