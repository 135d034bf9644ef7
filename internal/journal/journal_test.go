package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestJournalRoundTripAndTornTail: records read back as written; a last
// line cut off by a crash is dropped, a bad line before it is an error, and
// a journal is never overwritten.
func TestJournalRoundTripAndTornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.journal")
	w, err := Create(path, Header{Session: "abc123", Results: "r.txt", Runs: 4, Config: []byte(`{"Count":2}`)})
	if err != nil {
		t.Fatal(err)
	}
	res := &benchfmt.Result{Name: benchfmt.Name("X/db=sqlite"), Iters: 10,
		Values: []benchfmt.Value{{Value: 1500, Unit: "ns/op"}}}
	line, err := Line(res)
	if err != nil || line != "BenchmarkX/db=sqlite 10 1500 ns/op" {
		t.Fatalf("Line = %q, %v", line, err)
	}
	for k := 1; k <= 2; k++ {
		if err := w.Add(Record{Cell: "X/db=sqlite", Run: 1, Slice: k, Line: line, Latency: "HISTF"}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if _, err := Create(path, Header{}); err == nil {
		t.Error("an existing journal was created again")
	}
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"cell":"X/db=sqlite","run":1,"sl`) // a crash mid-write
	f.Close()
	h, recs, err := Read(path)
	if err != nil || h.Session != "abc123" || h.Runs != 4 || len(recs) != 2 || recs[1].Slice != 2 {
		t.Fatalf("Read: %+v %+v %v", h, recs, err)
	}
	back, err := recs[0].Result()
	if err != nil || back.Iters != 10 {
		t.Fatalf("Result: %+v %v", back, err)
	}
	b, _ := os.ReadFile(path)
	bad := strings.Replace(string(b), `"run":1,"slice":1`, `"run":0,"slice":1`, 1)
	os.WriteFile(path, []byte(bad), 0o600)
	if _, _, err := Read(path); err == nil || !strings.Contains(err.Error(), ":2: a bad record") {
		t.Errorf("a bad record in the middle: %v", err)
	}
	if _, _, err := Read(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("a missing journal read")
	}
}
