package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// twoSessions runs two short real sessions of the same settings (four
// SQLite targets, two workloads, two runs each) and returns their results
// files.
func twoSessions(t *testing.T) (a, b string) {
	t.Helper()
	return sessionPair(t, "--targets", "mattn,modernc,zombiezen,crawshaw", "--workloads", "SimpleExec,PreparedQueryRow",
		"--count", "2")
}

// sessionPair runs two real --quick sessions of one slice per run with
// the given flags, back to back, checks each printed its baseline table,
// and returns their results files.
func sessionPair(t *testing.T, flags ...string) (a, b string) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"old.txt", "new.txt"} {
		env, stdout, stderr, cache, _ := realEnv(t)
		out := filepath.Join(dir, name)
		args := append([]string{"run", "--quick", "--slices", "1", "-o", out, "--cache", cache, "--details"}, flags...)
		if code := Main(context.Background(), args, env); code != ExitOK {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		checkBaselineTable(t, stdout.String())
		paths = append(paths, out)
	}
	return paths[0], paths[1]
}

// checkBaselineTable fails t unless a session's output has the default
// baseline table, the first SQLite target in catalogue order (mattn)
// against the others, paired by pass, every line of it at most 100
// columns.
func checkBaselineTable(t *testing.T, out string) {
	t.Helper()
	i := strings.Index(out, "classic · sqlite · ops/s ÷ mattn's (baseline)")
	if i < 0 {
		t.Fatalf("no baseline table in the run's output:\n%s", out)
	}
	table, _, _ := strings.Cut(out[i:], "\n\n")
	for _, target := range []string{"modernc", "zombiezen", "crawshaw"} {
		if !strings.Contains(table, target) {
			t.Errorf("the baseline table has no row of %s:\n%s", target, table)
		}
	}
	if strings.Contains(table, "unpaired") || !strings.Contains(table, "paired") {
		t.Errorf("the runs of one session are not paired by pass:\n%s", table)
	}
	for _, line := range strings.Split(table, "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
}

// benchstatLine is a benchstat command of the docs: what follows
// "benchstat" up to a comment or the end of the line.
var benchstatLine = regexp.MustCompile("go tool benchstat ([^#`\n]*)")

// TestBenchstatOnRealSessions: the real benchstat (the module's pinned
// tool, built from go.mod's golang.org/x/perf) compares two sessions of the same settings as one table per unit,
// old against new, and every benchstat command of README.md and docs/*.md
// runs on real results files and prints nothing wider than 120 columns.
func TestBenchstatOnRealSessions(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to run benchstat with")
	}
	old, new := twoSessions(t)
	// compare takes them for sessions of the same settings: their own
	// facts (id, start, command line, output path) are no difference.
	var out, errb bytes.Buffer
	Main(context.Background(), []string{"compare", "--fail-over", "5%", old, new}, fakeEnv(&out, &errb))
	if strings.Contains(errb.String(), "different settings") {
		t.Errorf("two sessions of the same settings are refused as different: %s", errb.String())
	}
	// benchstat runs in the files' directory, on their base names, as a
	// user runs it on results/...: the column headings are the names.
	dir, old, new := filepath.Dir(old), filepath.Base(old), filepath.Base(new)
	bin := filepath.Join(t.TempDir(), "benchstat")
	if out, err := exec.Command("go", "build", "-o", bin,
		"golang.org/x/perf/cmd/benchstat").CombinedOutput(); err != nil {
		t.Fatalf("build the module's benchstat: %v\n%s", err, out)
	}
	benchstat := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("benchstat %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	s := benchstat(old, new)
	if n := strings.Count(s, "vs base"); n < 3 || strings.Count(s, "old.txt") != n {
		t.Errorf("benchstat printed %d comparisons and %d old columns, want one of each per unit:\n%s", n,
			strings.Count(s, "old.txt"), s)
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "old.txt") && !strings.Contains(line, "new.txt") {
			t.Errorf("old stands alone in a table (the sessions were split): %q", line)
		}
	}
	// The docs' examples, on these files.
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := 0
	for _, path := range append(files, "../../README.md") {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range benchstatLine.FindAllStringSubmatch(string(b), -1) {
			examples++
			args, operands := shellFields(t, m[1]), 0
			for i, a := range args {
				if strings.HasSuffix(a, ".txt") {
					args[i] = []string{old, new}[min(operands, 1)]
					operands++
				}
			}
			if operands == 0 {
				t.Errorf("%s: benchstat example %q names no results file", path, m[0])
				continue
			}
			out := benchstat(args...)
			if !strings.Contains(out, "│") {
				t.Errorf("%s: %q prints no table:\n%s", path, m[0], out)
			}
			for _, line := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(line); n > 120 {
					t.Errorf("%s: %q prints a line of %d columns:\n%s", path, m[0], n, line)
				}
			}
		}
	}
	if examples < 2 {
		t.Errorf("%d benchstat examples in the docs, want the README's and usage's at least", examples)
	}
}

// shellFields splits s as a shell does words quoted with '...' or bare.
func shellFields(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				out = append(out, cur.String())
				cur.Reset()
			}
			in = false
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
