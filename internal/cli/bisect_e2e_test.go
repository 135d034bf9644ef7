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
)

// TestBisectFindsTheCommit bisects a local checkout with a regression
// committed at a known place: the pinned zombiezen (a pure-Go driver,
// the cheapest to rebuild: its engine, modernc, comes from the build
// cache), copied from the module cache into a git repository of three
// commits after the good end, the second of which changes Stmt.Reset,
// called once per prepared query (the other two change a comment). In one
// case the change allocates (measured in allocs/op, exact); in the other it
// spins about 20 µs, a known slowdown of several times the operation
// (measured in wall time, judged by the paired ratios' verdicts). Every
// step builds the candidate as a variant target and measures it beside
// both ends; bisect must name that commit, in two steps, and keep every
// step's results.
func TestBisectFindsTheCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	for _, c := range []struct{ measure, change, unit, count string }{
		{"allocs/op", "\tbisectSink = new([64]byte) // sqlbench's bisect test: one allocation more\n", "allocs/op",
			"3"},
		{"time", "\tfor i := 0; i < 20000; i++ { // sqlbench's bisect test: a known slowdown\n" +
			"\t\tbisectSpin++\n\t}\n", "ops/s", "6"},
	} {
		t.Run(strings.ReplaceAll(c.measure, "/", "-"), func(t *testing.T) {
			bisectKnownCommit(t, c.measure, c.change, c.unit, c.count)
		})
	}
}

// bisectKnownCommit runs one case of TestBisectFindsTheCommit: change is
// put at the top of Stmt.Reset by the culprit commit.
func bisectKnownCommit(t *testing.T, measure, change, unit, count string) {
	env, stdout, stderr, cache, _ := realEnv(t)
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	pinned := pinnedVersion(t, "zombiezen.com/go/sqlite")
	repo := filepath.Join(t.TempDir(), "zombiezen")
	cached := filepath.Join(strings.TrimSpace(string(gomodcache)), "zombiezen.com/go/sqlite@"+pinned)
	if err := os.CopyFS(repo, os.DirFS(cached)); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	edit := func(file string, f func(string) string) {
		t.Helper()
		p := filepath.Join(repo, file)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) string {
		git("add", "-A")
		git("commit", "-q", "-m", msg)
		return git("rev-parse", "--short=12", "HEAD")
	}
	git("init", "-q", "-b", "main")
	good := commit("zombiezen " + pinned)
	note := func(n string) func(string) string {
		return func(s string) string { return s + "\n// sqlbench's bisect test: a harmless change, " + n + "\n" }
	}
	edit("doc.go", note("one"))
	harmless := commit("harmless one")
	reset := "func (stmt *Stmt) Reset() error {\n"
	edit("sqlite.go", func(s string) string {
		if !strings.Contains(s, reset) {
			t.Fatalf("no Stmt.Reset in zombiezen %s's sqlite.go", pinned)
		}
		return strings.Replace(s, reset, reset+change, 1) +
			"\nvar (\n\tbisectSink *[64]byte\n\tbisectSpin int\n)\n"
	})
	culprit := commit("regress in Reset")
	edit("doc.go", note("two"))
	commit("harmless two")

	dir := filepath.Join(t.TempDir(), "steps")
	code := Main(context.Background(), []string{"bisect", "--target", "zombiezen", "--checkout", repo, "--good", good,
		"--bad", "main", "--workload", "PreparedQueryRow", "--measure", measure, "--quick", "--count", count,
		"-o", dir, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	out := stdout.String()
	found := regexp.MustCompile(`(?m)^culprit: ` + culprit + ` regress in Reset \(first like the bad end`)
	if !found.MatchString(out) {
		t.Errorf("no culprit %s in:\n%s", culprit, out)
	}
	ratio := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(unit) + ` over ` + good +
		`.*'s: [0-9]+\.[0-9]+× \[[0-9.]+–[0-9.]+×\]`)
	if !ratio.MatchString(out) {
		t.Errorf("no ratio with its interval for the culprit in:\n%s", out)
	}
	// Three candidates: the middle one first, then the one the search
	// still needs.
	steps := regexp.MustCompile(`(?m)^  \d\. (\S+) .*?(like good|like bad|undecided)`).FindAllStringSubmatch(out, -1)
	if len(steps) != 2 || steps[0][1] != harmless || steps[0][2] != "like good" ||
		steps[1][1] != culprit || steps[1][2] != "like bad" {
		t.Errorf("path %v: want %s like good, then the culprit like bad\n%s", steps, harmless, out)
	}
	// A step whose time verdict was undecided measures again with more
	// runs, into a file of its own (step-01-HASH-12runs.txt): every file is
	// kept, and each step has one or more.
	files, _ := filepath.Glob(filepath.Join(dir, "step-*.txt"))
	perStep := map[string]int{}
	for _, f := range files {
		parts := strings.SplitN(strings.TrimSuffix(filepath.Base(f), ".txt"), "-", 4)
		perStep[strings.Join(parts[:min(3, len(parts))], "-")]++
	}
	if len(perStep) != 2 || perStep["step-01-"+harmless] == 0 || perStep["step-02-"+culprit] == 0 {
		t.Errorf("results files %v: want one or more for each of the two steps", files)
	}
	for _, f := range files {
		runs, _ := readRuns(t, f)
		if len(runs) != 3 {
			t.Errorf("%s: cells %v, want the good end, the candidate and the bad end", f, runs)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "bisect.txt"))
	if err != nil || !strings.Contains(string(b), "culprit: "+culprit) {
		t.Errorf("bisect.txt: %v\n%s", err, b)
	}
}

// TestBisectBadInput: what bisect cannot search is one line, exit 2,
// before anything is built.
func TestBisectBadInput(t *testing.T) {
	repo := t.TempDir()
	base := []string{"bisect", "--workload", "PreparedQueryRow", "--measure", "allocs/op"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "nosuch", "--good", "v1.0.0", "--bad", "v1.0.1"}, `--target "nosuch": unknown target`},
		{[]string{"--target", "mattn", "--good", "v1.14.22", "--bad", "v1.14.22"}, "nothing to bisect"},
		{[]string{"--target", "mattn", "--good", "v1.14.52", "--bad", "v1.14.22"}, "name the older release as --good"},
		{[]string{"--target", "mattn", "--good", "v1.14.21", "--bad", "v1.14.52"},
			"v1.14.21 is not a release the module proxy lists"},
		{[]string{"--target", "mattn", "--good", "v1.14.22", "--bad", "v1.14.52", "--measure", "furlongs"},
			`--measure "furlongs": unknown measure`},
		{[]string{"--target", "mattn", "--good", "v1.14.22"}, "--bad is required"},
		{[]string{"--target", "mattn", "--checkout", repo, "--good", "a", "--bad", "b"}, "no go.mod there"},
		{[]string{"--target", "jdbc-postgres", "--good", "42.7.2", "--bad", "42.7.3"}, "not a Go driver module"},
		{[]string{"--target", "mattn", "--good", "v1.14.22", "--bad", "v1.14.52", "--force"},
			"--force: only for an -o directory"},
		{[]string{"--target", "mattn", "--good", "v1.14.22", "--bad", "v1.14.52", "--resolution", "10%"},
			"--resolution: only for --measure time"},
		{[]string{"--target", "mattn", "--good", "v1.14.22", "--bad", "v1.14.52",
			"--dsn", "postgres=postgres://u:pw@127.0.0.1/db"},
			"--dsn: only for a target of a server"},
	} {
		var out, errb bytes.Buffer
		env := fakeEnv(&out, &errb)
		env.LookPath = exec.LookPath
		env.Dir = t.TempDir()
		code := Main(context.Background(), append(append([]string{}, base...), c.args...), env)
		msg := strings.TrimSpace(errb.String())
		if code != ExitUsage || strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) ||
			strings.Contains(msg, "pw@") {
			t.Errorf("%v: exit %d, %q; want exit %d and one line saying %q", c.args, code, msg, ExitUsage, c.want)
		}
	}
}

// TestBisectHelpFits: bisect's help fits 100 columns, as every command's.
func TestBisectHelpFits(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bisect", "--help"}, fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
}
