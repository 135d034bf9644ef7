package session

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets"
)

// TestCPUSuffixRoundTrip writes cells set to GOMAXPROCS 2 and 4 as result
// lines, reads them back with benchfmt and projects them by benchproc's
// /gomaxprocs key, as benchstat does; then benchstat itself splits them into
// a column per GOMAXPROCS.
func TestCPUSuffixRoundTrip(t *testing.T) {
	spec, ok := targets.Lookup("mattn")
	if !ok {
		t.Fatal("no mattn target")
	}
	w := bench.Workload{Name: "BulkInsert", Keys: "shape=3x8/path=prepared"}
	var file bytes.Buffer
	file.WriteString("goos: linux\n")
	for _, cpu := range []int{2, 4} {
		c := Cell{Workload: w, Placement: Placement{Target: spec, CPU: cpu}}
		if !strings.HasSuffix(c.Name(), fmt.Sprintf("/path=prepared-%d", cpu)) {
			t.Fatalf("name %q does not end in -%d", c.Name(), cpu)
		}
		for run := 1; run <= 2; run++ {
			fmt.Fprintf(&file, "Benchmark%s 100 %d ns/op\n", c.Name(), 1000*cpu+run)
		}
	}
	none := Cell{Workload: w, Placement: Placement{Target: spec}}
	if strings.HasSuffix(none.Name(), "-0") ||
		none.FileName() == (Cell{Workload: w, Placement: Placement{Target: spec, CPU: 2}}).FileName() {
		t.Errorf("a cell without CPU is named %q (file %q)", none.Name(), none.FileName())
	}

	var parser benchproc.ProjectionParser
	proj, err := parser.Parse(".name,/gomaxprocs", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	r := benchfmt.NewReader(bytes.NewReader(file.Bytes()), "cpu.txt")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		base, _ := res.Name.Parts()
		if string(base) != "BulkInsert" {
			t.Errorf("base name %q", base)
		}
		got[proj.Project(res).String()]++
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	for _, cpu := range []string{"2", "4"} {
		key := ".name:BulkInsert /gomaxprocs:" + cpu
		if got[key] != 2 {
			t.Errorf("benchproc: %d results for %q; got %v", got[key], key, got)
		}
	}

	path := filepath.Join(t.TempDir(), "cpu.txt")
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "benchstat", "-col", "/gomaxprocs", path).CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, out)
	}
	header := strings.Fields(strings.SplitN(string(out), "\n", 3)[1])
	if strings.Join(header, " ") != "│ 2 │ 4 │" {
		t.Errorf("benchstat columns %q, want GOMAXPROCS 2 and 4:\n%s", header, out)
	}
}
