package cli

import (
	"bytes"
	"cmp"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sqlbench/sqlbench/internal/studies"
)

// TestOutputFits100Columns: off a terminal, the help of every command,
// list (with and without an estimate), reproduce's list and every study's
// dry run, run's dry run and report's tables keep every line within 100
// columns; a terminal's own width is used where it is given.
func TestOutputFits100Columns(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("testdata/results.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "results"), 0o755)
	os.WriteFile(filepath.Join(dir, "results", "sqlbench-prior.txt"), b, 0o644)
	results, _ := filepath.Abs("testdata/results.txt")
	cmds := [][]string{
		{"--help"}, {"list"}, {"report", results}, {"run", "--dry-run"}, {"reproduce"},
		{"run", "--dry-run", "--workloads", "all", "--db", "sqlite,mariadb,postgres"},
	}
	for _, c := range []string{"run", "list", "server", "server start", "server stop", "server list", "server dsn",
		"server status", "report", "compare", "reproduce", "clean", "version", "completion", "help"} {
		cmds = append(cmds, append(strings.Fields(c), "--help"))
	}
	for _, s := range studies.All() {
		cmds = append(cmds, []string{"reproduce", s.ID, "--dry-run"})
	}
	check := func(args []string, dir string, width int) {
		t.Helper()
		var out, errb bytes.Buffer
		env := fakeEnv(&out, &errb)
		env.Dir, env.StdoutWidth = dir, width
		if code := Main(context.Background(), args, env); code != ExitOK {
			t.Errorf("%v: exit %d: %s", args, code, errb.String())
		}
		limit := cmp.Or(width, 100)
		for _, line := range strings.Split(out.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > limit {
				t.Errorf("%v at width %d: a line of %d columns: %q", args, width, n, line)
			}
		}
	}
	for _, args := range cmds {
		check(args, dir, 0)
	}
	// A terminal of 80 columns: the catalogue and the tables fit it.
	check([]string{"list"}, t.TempDir(), 80)
	check([]string{"report", results}, dir, 80)
}
