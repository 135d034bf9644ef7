package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sqlbench/sqlbench/internal/published"
	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// TestReproduceListsEveryStudy: sqlbench reproduce without a study lists
// them all.
func TestReproduceListsEveryStudy(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"reproduce"}, fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, id := range studies.IDs() {
		if !strings.Contains(out.String(), id+" ") {
			t.Errorf("the list lacks %s:\n%s", id, out.String())
		}
	}
	fits(t, out.String())
}

// TestReproduceMarkdownNamesEveryDifference: reproduce --markdown gives
// every study its section, with the published document's and program's
// public addresses, every difference the study's data names and every
// known cause, so that docs/reproduce.md (a generated block of it) says
// all the verdicts are built from.
func TestReproduceMarkdownNamesEveryDifference(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"reproduce", "--markdown"}, fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	sections := strings.Split(out.String(), "### ")[1:]
	all := studies.All()
	if len(sections) != len(all) {
		t.Fatalf("%d sections for %d studies:\n%s", len(sections), len(all), out.String())
	}
	for i, s := range all {
		sec := sections[i]
		want := []string{"`" + s.ID + "`", "(" + s.Source.URL + ")", s.Source.Machine}
		if s.Source.Program != "" {
			want = append(want, "<"+s.Source.Program+">")
		}
		for _, g := range s.Unavailable {
			want = append(want, g.What+": "+strings.TrimSuffix(g.Why, "."))
		}
		want = append(want, "  - Go toolchain: "+goDifference(s, "")+".\n")
		for _, c := range s.Causes {
			want = append(want, strings.TrimSuffix(c.Text, "."))
			if c.Status == studies.Hypothesis {
				want = append(want, "(hypothesis, not measured: "+c.Unmeasured+"): "+c.Text[:20])
			} else {
				versions := "go.mod's driver versions"
				if c.Versions == studies.VersionsPeriod {
					versions = "the study's driver versions"
				}
				want = append(want, "; "+c.Sizes+"; "+versions+"; "+c.Date+"): "+c.Text[:20])
			}
		}
		for _, w := range want {
			if !strings.Contains(sec, w) {
				t.Errorf("%s: the section lacks %q:\n%s", s.ID, w, sec)
			}
		}
		if strings.Contains(sec, "../shared") || strings.Contains(sec, "studies/0") {
			t.Errorf("%s: the section cites a local path:\n%s", s.ID, sec)
		}
	}
}

// fits fails the test when a line of out is wider than textlayout.Width.
func fits(t *testing.T, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > textlayout.Width {
			t.Errorf("%d columns: %q", n, line)
		}
	}
}

// TestReproduceDryRun: --dry-run shows a study's sources, cells and what
// will not run, and all --dry-run every study and the sum, writing
// nothing, within the terminal's width.
func TestReproduceDryRun(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	if code := Main(context.Background(), []string{"reproduce", "sqinn-go", "--dry-run", "--quick"},
		env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"published: https://github.com/cvilsmeier/sqinn-go-bench/blob/8bbb4e0/README.md",
		"dry run: nothing is built, started or written", "SqinnMany/crawshaw/n=1000",
		"26 cells x 8 runs", "not reproduced: Windows 10",
		"budgeted session (default budget: 8 × a fixed design's measuring time (5 runs per cell)",
		"to 12, 16, 20, 24, 28, 32, 36, 40 runs per cell; 9 looks"} {
		if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), want) {
			t.Errorf("dry run lacks %q:\n%s", want, out.String())
		}
	}
	fits(t, out.String())
	out.Reset()
	if code := Main(context.Background(), []string{"reproduce", "all", "--dry-run"}, env); code != ExitOK {
		t.Fatalf("all: exit %d: %s", code, errb.String())
	}
	for _, id := range studies.IDs() {
		if !strings.Contains(out.String(), "=== "+id+"\n") {
			t.Errorf("all --dry-run lacks %s:\n%s", id, out.String())
		}
	}
	if !strings.Contains(out.String(), "every study: ") {
		t.Errorf("all --dry-run has no total:\n%s", out.String())
	}
	fits(t, out.String())
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a dry run wrote %v", entries)
	}
}

func TestReproduceAndCPUBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"reproduce", "nosuch"}, `unknown study "nosuch" (valid: sqlbench-2013-osx,`},
		{[]string{"reproduce", "dbi-2023", "sqinn-go"}, "one study (or all) at a time"},
		{[]string{"reproduce", "all", "--count", "0", "--scale", "-2"}, "--scale must be above 0"},
		{[]string{"reproduce", "dbi-2023", "--scale", "-1"}, "--scale must be above 0"},
		{[]string{"reproduce", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"reproduce", "dbi-2023", "--markdown"}, "--markdown lists every study: it takes no study"},
		{[]string{"reproduce", "dbi-2023", "--versions", "today"},
			`--versions must be published or pinned, got "today"`},
		{[]string{"reproduce", "dbi-2023", "--versions", "pinned", "--as-published"},
			"--as-published and --versions pinned: one or the other"},
		{[]string{"run", "--cpu", "2,x"},
			`--cpu: want GOMAXPROCS values from 1 to 1024, comma-separated (e.g. 2,4,8), got "x"`},
		{[]string{"run", "--cpu", "0"}, `--cpu: want GOMAXPROCS values`},
		{[]string{"run", "--cpu", "2,2"}, "--cpu: 2 is given twice"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), c.args, fakeEnv(&out, &errb))
		if msg := errb.String(); code != ExitUsage || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("sqlbench %s: exit %d, stderr %q; want exit 2 and one line containing %q",
				strings.Join(c.args, " "), code, msg, c.want)
		}
	}
}

// TestReproduceNamesWhatCannotRun: a study none of whose comparisons can
// run here (no Go toolchain, no sqinn program) prints its published
// figures, not measured, and every reason, and fails as a machine that
// cannot run it.
func TestReproduceNamesWhatCannotRun(t *testing.T) {
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.LookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	code := Main(context.Background(), []string{"reproduce", "sqinn-go"}, env)
	if code != ExitFailed || !strings.Contains(errb.String(), "nothing of the study can run here") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	for _, want := range []string{"simple/insert", "crawshaw / mattn", "1.36×", "not measured",
		"not reproduced: target mattn: needs the Go toolchain", "not reproduced: Windows 10: this machine runs Linux"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestReproduceAllGoesOn: reproduce all goes through every study even when
// none can run here (no Go toolchain, no JDK), prints each one's table and
// reasons, ends with a line of verdicts per study, and exits 1.
func TestReproduceAllGoesOn(t *testing.T) {
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.LookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	code := Main(context.Background(), []string{"reproduce", "all", "--quick"}, env)
	if code != ExitPartial {
		t.Errorf("exit %d, want %d: %s", code, ExitPartial, errb.String())
	}
	_, summary, ok := strings.Cut(out.String(), "\nevery study:\n")
	if !ok {
		t.Fatalf("no summary:\n%s", out.String())
	}
	for _, s := range studies.All() {
		if !strings.Contains(out.String(), "=== "+s.ID+"\n") ||
			!strings.Contains(out.String(), "  "+s.Source.URL+"\n") {
			t.Errorf("%s: no table or no public address:\n%s", s.ID, out.String())
		}
		want := fmt.Sprintf("%-18s 0 of %d comparisons measured: 0 agree, 0 disagree, 0 undecided", s.ID,
			len(s.Comparisons()))
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	fits(t, out.String())
}

// TestTallyCountsTheDisagreementsWithoutACause: the study's tally line
// says how many of its disagreements have no known cause, and says
// nothing of causes when every one has one.
func TestTallyCountsTheDisagreementsWithoutACause(t *testing.T) {
	rows := []published.Row{
		{Verdict: published.VerdictAgrees},
		{Verdict: published.VerdictDisagrees, Cause: "this machine"},
		{Verdict: published.VerdictDisagrees},
		{Verdict: published.VerdictInconclusive},
		{Verdict: published.VerdictNotMeasured},
	}
	if got, want := tally(&published.Table{Rows: rows}), "4 of 5 comparisons measured: 1 agrees, 2 disagree (1 with "+
		"no known cause), 1 undecided"; got != want {
		t.Errorf("tally %q, want %q", got, want)
	}
	rows[2].Cause = "the versions"
	if got, want := tally(&published.Table{Rows: rows}),
		"4 of 5 comparisons measured: 1 agrees, 2 disagree, 1 undecided"; got != want {
		t.Errorf("tally %q, want %q", got, want)
	}
}

// TestGoDifference: each study's heading names the Go it was built with
// beside the one here, as the results record it.
func TestGoDifference(t *testing.T) {
	s, _ := studies.Lookup("sqlbench-2013-win-go1.0.3")
	if got := goDifference(s, "go1.26.8"); got != "the study's Go 1.0.3; here go1.26.8" {
		t.Errorf("goDifference = %q", got)
	}
	s, _ = studies.Lookup("sqinn-go")
	if got := goDifference(s, ""); !strings.HasPrefix(got, "not stated by the study; here this machine's toolchain") {
		t.Errorf("goDifference = %q", got)
	}
}

// TestReproduceRunsTheStudysVersionsByDefault: without --versions a
// reproduction plans each driver at the study's period version (sqinn-go:
// mattn v2.0.3, crawshaw's the pinned one), naming no versions gap;
// --versions pinned plans the catalogue's and names the gap; the hidden
// --as-published of earlier releases plans as the default does.
func TestReproduceRunsTheStudysVersionsByDefault(t *testing.T) {
	for _, tc := range []struct {
		flags       []string
		period, gap bool
	}{
		{nil, true, false},
		{[]string{"--versions", "published"}, true, false},
		{[]string{"--as-published"}, true, false},
		{[]string{"--versions", "pinned"}, false, true},
	} {
		var out, errb bytes.Buffer
		env := fakeEnv(&out, &errb)
		env.Dir = t.TempDir()
		args := append([]string{"reproduce", "sqinn-go", "--dry-run", "--quick"}, tc.flags...)
		if code := Main(context.Background(), args, env); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", tc.flags, code, errb.String())
		}
		text := strings.Join(strings.Fields(out.String()), " ")
		period := strings.Contains(text, "as published: mattn runs as mattn@v2.0.3+incompatible")
		gap := strings.Contains(text, "not reproduced: the 2020 versions")
		if period != tc.period || gap != tc.gap {
			t.Errorf("%v: period versions %v (want %v), versions gap %v (want %v):\n%s", tc.flags, period, tc.period,
				gap, tc.gap, out.String())
		}
	}
}
