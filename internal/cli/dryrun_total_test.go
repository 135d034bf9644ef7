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

// TestDryRunOfAScriptGivesItsTotal: a script run for a time needs no
// results to estimate from: its total follows from --time and --count.
func TestDryRunOfAScriptGivesItsTotal(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.sql")
	if err := os.WriteFile(script, []byte("SELECT 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	args := []string{"run", "--dry-run", "--script", script, "--time", "30s", "--clients", "8", "--targets",
		"mattn,modernc"}
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := strings.Join(strings.Fields(out.String()), " ")
	if want := "estimated time: 7m0s timed: 2 cells x 7 runs of --time 30s"; !strings.Contains(got, want) {
		t.Errorf("dry run of a script lacks %q:\n%s", want, out.String())
	}
	if strings.Contains(got, "no results here") {
		t.Errorf("dry run of a script asks for results to estimate from:\n%s", out.String())
	}
}

// TestAllStudiesTotal: reproduce all --dry-run's last line is the sum, or
// says which cells it lacks and how to get them, never a garbled phrase.
func TestAllStudiesTotal(t *testing.T) {
	for _, c := range []struct {
		total   time.Duration
		unknown int
		lacking []string
		want    string
	}{
		{90 * time.Second, 0, nil, "every study: 1m30s timed"},
		{0, 12, []string{"a", "b"}, "every study: no estimate: no results here for any of the 12 cells (of a, b); " +
			"run `sqlbench run --quick --workloads all` once to estimate them"},
		{90 * time.Second, 3, []string{"b"},
			"every study: at least 1m30s timed; not counted: 3 cells with no results " +
				"here to estimate from (of b); run `sqlbench run --quick --workloads all` once to estimate them"},
	} {
		if got := allStudiesTotal(c.total, c.unknown, c.lacking); got != c.want {
			t.Errorf("allStudiesTotal(%v, %d, %v) =\n%q, want\n%q", c.total, c.unknown, c.lacking, got, c.want)
		}
	}
}
