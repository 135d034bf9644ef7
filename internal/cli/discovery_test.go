package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets"
)

func TestListJSONHasEveryTargetAndWorkload(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"list", "--json"}, fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var c catalogJSON
	if err := json.Unmarshal(out.Bytes(), &c); err != nil {
		t.Fatalf("list --json is not JSON: %v\n%s", err, out.String())
	}
	if len(c.Targets) != len(targets.All()) || len(c.Workloads) != len(bench.Workloads()) {
		t.Errorf("%d targets, %d workloads; want %d and %d", len(c.Targets), len(c.Workloads), len(targets.All()),
			len(bench.Workloads()))
	}
	byName := map[string]targetJSON{}
	for _, tg := range c.Targets {
		byName[tg.Name] = tg
	}
	if tg := byName["mattn"]; !tg.Available || tg.Reason != "" || tg.DB != "sqlite" {
		t.Errorf("mattn on a machine with go and gcc: %+v", tg)
	}
	if tg := byName["jdbc-sqlite"]; tg.Available || !strings.Contains(tg.Reason, "needs a JDK 17+ and Maven") {
		t.Errorf("jdbc-sqlite on a machine without java: %+v", tg)
	}
	for _, w := range c.Workloads {
		if len(w.Databases) == 0 || w.Descriptions[w.Databases[0]] == "" || w.Ops <= 0 {
			t.Errorf("workload %s: databases %v, descriptions %v, ops %d", w.ID, w.Databases, w.Descriptions, w.Ops)
		}
	}
}

// TestDryRunPrintsThePlanAndWritesNothing: the cells a glob with an
// exclusion selects, the passes, and the estimate from the results file
// there, with no file written.
func TestDryRunPrintsThePlanAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("testdata/results.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "results"), 0o755)
	prior := filepath.Join(dir, "results", "sqlbench-prior.txt")
	os.WriteFile(prior, b, 0o644)
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	args := []string{"run", "--dry-run", "--targets", "m*,*zen,-zombie*", "--workloads",
		"SimpleQuery*,-*Select1,SimpleExec,-SimpleExec", "--count", "6", "--slices", "3"}
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := out.String()
	for _, want := range []string{
		"SimpleQuery/mattn ",
		"SimpleQueryRow/modernc ",
		"4 cells x 6 runs (+10% warm-up each), each run in up to 3 slices: 18 passes, 72 steps",
		"estimated time: ",
		"from each cell's median ns/op in",
		prior, // the path on a line of its own where the line would pass 100 columns
	} {
		if !strings.Contains(got, want) {
			t.Errorf("dry run does not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "SimpleExec") || strings.Contains(got, "?") {
		t.Errorf("dry run has an excluded cell or one without an estimate:\n%s", got)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "results"))
	if len(entries) != 1 {
		t.Errorf("dry run wrote files: %v", entries)
	}
}

func TestHelpOfEveryCommandHasExamples(t *testing.T) {
	for _, cmd := range [][]string{{"run"}, {"list"}, {"server"}, {"server", "start"}, {"server", "stop"},
		{"server", "dsn"}, {"report"}, {"compare"}, {"clean"}, {"version"}, {"help"}} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"help"}, cmd...), fakeEnv(&out, &errb))
		if code != ExitOK || !strings.Contains(out.String(), "Examples:\n  sqlbench "+strings.Join(cmd, " ")) {
			t.Errorf("help %s: exit %d, no examples of it:\n%s%s", strings.Join(cmd, " "), code, out.String(),
				errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"help", "server", "frob"}, fakeEnv(&out,
		&errb)); code != ExitUsage ||
		!strings.Contains(errb.String(), `unknown command "frob" (valid: dsn, start, status, stop)`) {
		t.Errorf("help server frob: exit %d, %q", code, errb.String())
	}
}

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), []string{"completion", shell}, fakeEnv(&out, &errb)); code != ExitOK ||
			!strings.Contains(out.String(), "__complete") {
			t.Errorf("completion %s: exit %d, %d bytes, stderr %q", shell, code, out.Len(), errb.String())
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--targets", "mattn,mo"}, "mattn,modernc\n"},
		{[]string{"run", "--workloads", "Suite"}, "\nSuiteSimpleInsert\n"},
		{[]string{"run", "--db", ""}, "\npostgres\n"},
		{[]string{"report", "--format", "html,"}, "html,markdown\n"},
		{[]string{"server", "start", ""}, "mariadb\npostgres\n"},
		{[]string{"server", "start", "t"}, "tidb\n"},
		{[]string{"server", "stop", "t"}, "tidb\n"},
		{[]string{"server", "dsn", "t"}, "tidb\n"},
		{[]string{"server", "stop", "--"}, "\n--all\t"},
		{[]string{"help", "ser"}, "server\n"},
	} {
		var out, errb bytes.Buffer
		Main(context.Background(), append([]string{"__complete"}, c.args...), fakeEnv(&out, &errb))
		if !strings.Contains("\n"+out.String(), c.want) {
			t.Errorf("completion of %q offers\n%s\nwant %q", c.args, out.String(), c.want)
		}
	}
}
