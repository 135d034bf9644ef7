package benchfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

func TestWriteReadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.txt")
	w, err := Create(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	w.SetConfig("cpu", "Test CPU")
	if err := w.WriteUnits(); err != nil {
		t.Fatal(err)
	}
	name := "SimpleQuery/db=sqlite/driver=mattn/api=sql"
	for i := 1; i <= 3; i++ {
		r := &benchfmt.Result{Name: benchfmt.Name(name), Iters: 100, Values: []benchfmt.Value{
			{Value: float64(1000 * i), Unit: "ns/op"}, {Value: 1e6 / float64(i), Unit: "ops/s"}, {Value: 24, Unit: "B/op"},
		}}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		// Each run reaches the file as it is written.
		if b, _ := os.ReadFile(path); strings.Count(string(b), "\nBenchmark") != i {
			t.Fatalf("after %d writes the file holds %d results", i, strings.Count(string(b), "\nBenchmark"))
		}
	}
	w.SetConfig("cpu", "Other CPU")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	set, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Results) != 3 {
		t.Fatalf("read %d results, want 3", len(set.Results))
	}
	r := set.Results[2]
	if r.Name.String() != name || r.Iters != 100 || r.GetConfig("cpu") != "Test CPU" {
		t.Errorf("read back %s %d cpu=%q", r.Name, r.Iters, r.GetConfig("cpu"))
	}
	if v, ok := r.Value("ops/s"); !ok || v < 333333 || v > 333334 {
		t.Errorf("ops/s = %v", v)
	}
	if set.Units.GetBetter("ops/s") != 1 || set.Units.GetBetter("p99-ns/op") != -1 {
		t.Errorf("unit metadata not read back: ops/s %d, p99 %d", set.Units.GetBetter("ops/s"), set.Units.GetBetter("p99-ns/op"))
	}
}

func TestReadRejectsCorruptFiles(t *testing.T) {
	for _, content := range []string{
		"BenchmarkX 100 12 ns/op\nBenchmarkY notanumber 5 ns/op\n",
		"BenchmarkX 100 12\n",
	} {
		if _, err := Read(strings.NewReader(content), "bad.txt"); err == nil || !strings.Contains(err.Error(), "bad.txt:") {
			t.Errorf("Read(%q) = %v, want an error naming the position", content, err)
		}
	}
}

func TestCreateFailsOnUnwritablePath(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(filepath.Join(f, "out.txt"), Exclusive); err == nil {
		t.Error("Create under a regular file succeeded")
	}
	if _, err := ReadFile(filepath.Join(f, "missing")); err == nil {
		t.Error("ReadFile of a missing file succeeded")
	}
}

// TestCreateModes: Exclusive refuses an existing file and leaves it alone,
// Unique takes the next free name (two sessions in the same second),
// Overwrite truncates.
func TestCreateModes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.txt")
	if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path, Exclusive); !errors.Is(err, ErrExists) {
		t.Errorf("Exclusive on an existing file: %v, want ErrExists", err)
	}
	var names []string
	for range 2 {
		w, err := Create(path, Unique)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Base(w.Name()))
		w.Close()
	}
	if names[0] != "r-2.txt" || names[1] != "r-3.txt" {
		t.Errorf("Unique names %v, want r-2.txt r-3.txt", names)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep" {
		t.Errorf("the existing file holds %q", b)
	}
	w, err := Create(path, Overwrite)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("Discard left %s: %v", path, err)
	}
}

// TestDiscardRemovesTheDirectoriesCreateMade: a session that ends before
// anything ran leaves neither its file nor the results/ directory made for
// it; a directory that was there, or that holds another file, stays.
func TestDiscardRemovesTheDirectoriesCreateMade(t *testing.T) {
	root := t.TempDir()
	w, err := Create(filepath.Join(root, "results", "day", "r.txt"), Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "results")); !os.IsNotExist(err) {
		t.Errorf("Discard left the directory it made: %v", err)
	}
	if _, err := os.Stat(root); err != nil {
		t.Errorf("Discard removed the directory that was there: %v", err)
	}

	keep := filepath.Join(root, "results", "keep.txt")
	w, err = Create(filepath.Join(root, "results", "day", "r.txt"), Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "results", "day")); !os.IsNotExist(err) {
		t.Errorf("Discard left the empty directory it made: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("Discard removed another's file: %v", err)
	}
}
