package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDryRunEstimatesFromSessionsOfItsMeasure: a session that counts
// instructions runs under Valgrind, tens to hundreds of times as long as a
// wall-time one, so the dry run of each estimates only from results files
// of its own measure, the newest of them; with none there, an instructions
// plan says so, and why, rather than guess from wall time.
func TestDryRunEstimatesFromSessionsOfItsMeasure(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results")
	if err := os.MkdirAll(res, 0o755); err != nil {
		t.Fatal(err)
	}
	cell := "BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 10 "
	instr := filepath.Join(res, "sqlbench-1.txt")
	wall := filepath.Join(res, "sqlbench-2.txt")
	files := map[string]string{
		instr: "scale: 0.01\nmeasure: instructions (valgrind-3.19.0 callgrind, not hardware counters)\n\n" +
			cell + "100000000 ns/op 34000 instructions/op\n",
		wall: "scale: 0.01\n\n" + cell + "1000000 ns/op\n",
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour) // the instructions session is the older
	if err := os.Chtimes(instr, old, old); err != nil {
		t.Fatal(err)
	}
	dryRun := func(extra ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		env := fakeEnv(&out, &errb)
		env.Dir = dir
		look := env.LookPath
		env.LookPath = func(name string) (string, error) {
			if name == "valgrind" {
				return "/usr/bin/valgrind", nil
			}
			return look(name)
		}
		args := append([]string{"run", "--dry-run", "--targets", "mattn", "--workloads", "SimpleQuery"}, extra...)
		if code := Main(context.Background(), args, env); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return strings.Join(strings.Fields(out.String()), " ")
	}
	if got := dryRun("--measure", "instructions"); !strings.Contains(got, "median ns/op in "+instr) {
		t.Errorf("--measure instructions: want the estimate from the instructions session %s:\n%s", instr, got)
	}
	if got := dryRun(); !strings.Contains(got, "median ns/op in "+wall) {
		t.Errorf("wall time: want the estimate from the wall-time session %s:\n%s", wall, got)
	}
	if err := os.Remove(instr); err != nil {
		t.Fatal(err)
	}
	got := dryRun("--measure", "instructions")
	if !strings.Contains(got, "no results of a --measure instructions session here") || strings.Contains(got, wall) {
		t.Errorf("--measure instructions, only a wall-time session there: want no estimate, saying why:\n%s", got)
	}
}
