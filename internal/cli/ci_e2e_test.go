package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/testenv"
)

// ciScript is the CI recipe's script, from this package's directory.
const ciScript = "../../examples/ci/sqlbench-pr.sh"

// ciScriptLimit bounds one run of the CI script in the tests: the longest
// case, two sessions, took 34-53 s on 2 cores at load average 12-25.
const ciScriptLimit = 150 * time.Second

// runCIScript runs examples/ci/sqlbench-pr.sh with the environment env
// added to the test's, and returns its exit status, stdout and stderr. A
// script still running after ciScriptLimit is killed, with everything it
// started, and fails the test with what it printed.
func runCIScript(t *testing.T, env ...string) (int, string, string) {
	t.Helper()
	script, err := filepath.Abs(ciScript)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), ciScriptLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its sessions and their runners too
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Dir = t.TempDir()
	root, _ := filepath.Abs("../..")
	cmd.Env = append(os.Environ(), append([]string{"SQLBENCH_SRC=" + root}, env...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	began := time.Now()
	err = cmd.Run()
	t.Logf("%s: %s", filepath.Base(script), time.Since(began).Round(time.Second))
	if ctx.Err() != nil {
		t.Fatalf("%s ran over %s, killed\nstdout:\n%s\nstderr:\n%s", script, ciScriptLimit, out.String(), errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %s: %v", script, err)
	}
	return code, out.String(), errb.String()
}

// warmRunner builds the runner of group into cache, as the first session
// of one of its targets would (the e2e tests share the cache). A variant
// of a target is built from the same packages but the module it replaces:
// with this one built, Go's build cache holds them all.
func warmRunner(t *testing.T, cache, group string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	b := launcher.Builder{Src: root, Cache: cache}
	if _, err := b.Build(context.Background(), group, false); err != nil {
		t.Fatalf("build the %s runner: %v", group, err)
	}
	t.Logf("the %s runner: %s", group, time.Since(began).Round(time.Second))
}

// copyZombiezen copies the pinned zombiezen module from the module cache
// into dir, writable; change, when not nil, rewrites its sqlite.go.
func copyZombiezen(t *testing.T, dir string, change func(string) string) {
	t.Helper()
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	cached := filepath.Join(strings.TrimSpace(string(gomodcache)),
		"zombiezen.com/go/sqlite@"+pinnedVersion(t, "zombiezen.com/go/sqlite"))
	if err := os.CopyFS(dir, os.DirFS(cached)); err != nil {
		t.Fatal(err)
	}
	if change == nil {
		return
	}
	p := filepath.Join(dir, "sqlite.go")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(change(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCIRecipe runs the CI recipe (examples/ci) end to end, for real: the
// real sqlbench binary, two local checkouts of the pinned zombiezen (pure
// Go, the cheapest driver to build) as the base and the PR, a session of
// instructions/op under callgrind and a wall-time session. A PR whose
// Stmt.Reset (once per prepared query) allocates and loops 2,000 times
// must fail the gate, exit 1, naming the cell; it writes the summary to
// GITHUB_STEP_SUMMARY and records both sessions in the history. A PR of
// the base's code unchanged must pass, exit 0 (its wall-time session left
// out: its verdict cannot be "slower" but for chance, and it would double
// the test's time). A PR that does not build is exit status 3, with the
// compiler's error.
//
// Its time: each case's script is bounded (ciScriptLimit). What once made
// it take over 6 minutes was not Valgrind but the runner builds: the first
// build of the purego runner (CGO_ENABLED=0, modernc's SQLite among its
// packages) on a Go build cache without them compiles for minutes on 2
// cores, and this test, first in the package's order, paid it inside the
// script's first session. warmRunner builds it first, in the shared cache
// the later e2e tests use: the variants then compile zombiezen's copy and
// link (seconds each). Every session runs each run in one slice
// (--slices 1): fewer passes, so fewer of the per-pass machine probes,
// which took half the time of a loaded session.
func TestCIRecipe(t *testing.T) {
	testenv.Programs(t, "valgrind", "jq", "bash")
	_, _, _, cache, _ := realEnv(t)
	warmRunner(t, cache, "purego")
	bin := buildSqlbench(t, t.TempDir())
	dir := t.TempDir()
	base, slow, same := filepath.Join(dir, "base"), filepath.Join(dir, "pr"), filepath.Join(dir, "same")
	copyZombiezen(t, base, nil)
	copyZombiezen(t, same, nil)
	copyZombiezen(t, slow, func(s string) string {
		reset := "func (stmt *Stmt) Reset() error {\n"
		if !strings.Contains(s, reset) {
			t.Fatal("no Stmt.Reset in zombiezen's sqlite.go")
		}
		slower := "\tciSink = new([64]byte) // sqlbench's CI test: an allocation and a loop more\n" +
			"\tfor i := range 2000 {\n\t\tciSpin = ciSpin*31 + uint64(i)\n\t}\n"
		return strings.Replace(s, reset, reset+slower, 1) + "\nvar (\n\tciSink *[64]byte\n\tciSpin uint64\n)\n"
	})
	broken := filepath.Join(dir, "broken")
	copyZombiezen(t, broken, func(s string) string { return s + "\nfunc ciBroken() { undefinedName() }\n" })
	history := filepath.Join(dir, "history.db")
	common := []string{"SQLBENCH=" + bin, "SQLBENCH_TARGET=zombiezen", "SQLBENCH_BASE_DIR=" + base,
		"SQLBENCH_WORKLOADS=PreparedQueryRow", "SQLBENCH_QUICK=1", "SQLBENCH_RUN_ARGS=--slices 1 --cache " + cache,
		"SQLBENCH_HISTORY_DB=" + history}
	cell := "PreparedQueryRow/db=sqlite/api=native"

	t.Run("regression", func(t *testing.T) {
		out, summary := filepath.Join(dir, "out-pr"), filepath.Join(dir, "step-summary.md")
		code, stdout, stderr := runCIScript(t, append(common, "SQLBENCH_PR_DIR="+slow, "SQLBENCH_OUT="+out,
			"GITHUB_STEP_SUMMARY="+summary)...)
		if code != 1 {
			t.Fatalf("exit %d, want 1 (a regression)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		named := regexp.MustCompile(`(?m)^sqlbench-pr: regression: ` + regexp.QuoteMeta(cell) +
			` instructions/op \d+ -> \d+ \(\+\d+\.?\d*%, over 1%\)$`)
		if !named.MatchString(stderr) || !strings.Contains(stderr, "sqlbench-pr: FAIL: ") {
			t.Errorf("stderr names no instructions/op regression of %s:\n%s", cell, stderr)
		}
		row := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(cell) + `\s+\d+\s+\d+\s+\+\d+\.?\d*%\s+REGRESSION$`)
		if !row.MatchString(stdout) {
			t.Errorf("no instructions/op row failing the gate in stdout:\n%s", stdout)
		}
		// The wall-time verdict is the machine's to give: any verdict, but
		// one, and "slower" fails the gate by name.
		verdict := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(cell) +
			`\s+[0-9.]+×\s+\[[0-9.]+–[0-9.]+×\]\s+(faster|slower|equivalent|undecided)\s+(ok|REGRESSION)$`)
		m := verdict.FindStringSubmatch(stdout)
		switch {
		case m == nil:
			t.Errorf("no wall-time verdict row in stdout:\n%s", stdout)
		case (m[1] == "slower") != (m[2] == "REGRESSION"):
			t.Errorf("wall time %s gated %s: only slower fails", m[1], m[2])
		case m[1] == "slower" && !strings.Contains(stderr, "regression: "+cell+" ops/s "):
			t.Errorf("a slower wall time not named on stderr:\n%s", stderr)
		}
		t.Logf("stdout:\n%s", stdout)
		for _, f := range []string{"instructions.txt", "time.txt", "instructions.md", "time.md", "gate.txt"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("output %s: %v", f, err)
			}
		}
		b, err := os.ReadFile(summary)
		if err != nil || !regexp.MustCompile(`^## sqlbench: [12] regression\(s\) in zombiezen\n`).Match(b) ||
			!strings.Contains(string(b), "ops/s ÷ zombiezen@local-base's (baseline)") {
			t.Errorf("GITHUB_STEP_SUMMARY: %v\n%.600s", err, b)
		}
		if b, err := os.ReadFile(filepath.Join(out, "history.log")); err != nil ||
			!strings.Contains(string(b), "2 recorded, 0 skipped") {
			t.Errorf("history.log: %v\n%s", err, b)
		}
	})

	t.Run("unchanged", func(t *testing.T) {
		out := filepath.Join(dir, "out-same")
		code, stdout, stderr := runCIScript(t, append(common, "SQLBENCH_PR_DIR="+same, "SQLBENCH_OUT="+out,
			"SQLBENCH_TIME=0", "SQLBENCH_INSTR_COUNT=3")...)
		if code != 0 {
			t.Fatalf("exit %d, want 0 (the base's code unchanged)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		row := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(cell) + `\s+\d+\s+\d+\s+[+-]\d+\.?\d*%\s+ok$`)
		if !row.MatchString(stdout) || !strings.Contains(stderr, "sqlbench-pr: PASS: no regression") {
			t.Errorf("no passing instructions/op row:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
		}
		t.Logf("stdout:\n%s", stdout)
	})

	t.Run("sqlbench refuses", func(t *testing.T) {
		code, stdout, stderr := runCIScript(t, append(common, "SQLBENCH_PR_DIR="+same,
			"SQLBENCH_OUT="+filepath.Join(dir, "out-refused"), "SQLBENCH_WORKLOADS=NoSuchWorkload")...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || !strings.Contains(lines[len(lines)-1], `unknown workload or family "NoSuchWorkload"`) {
			t.Fatalf("exit %d, want 2 naming the workload\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	})

	t.Run("does not build", func(t *testing.T) {
		out := filepath.Join(dir, "out-broken")
		code, stdout, stderr := runCIScript(t, append(common, "SQLBENCH_PR_DIR="+broken, "SQLBENCH_OUT="+out,
			"SQLBENCH_TIME=0", "SQLBENCH_INSTR_COUNT=2", "SQLBENCH_RUN_ARGS=--slices 1 --cache "+cache)...)
		if code != 3 || !strings.Contains(stderr, "not every cell was measured") {
			t.Fatalf("exit %d, want 3 (the PR does not build)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if !strings.Contains(stderr, "undefinedName") {
			t.Errorf("the compiler's error is not shown:\n%s", stderr)
		}
	})
}

// TestCIRecipeBadInput: what the CI script cannot run is one line, exit 2
// (bad input) or 3 (a tool missing), before any session.
func TestCIRecipeBadInput(t *testing.T) {
	testenv.Programs(t, "bash")
	a, b, pr := filepath.Join(t.TempDir(), "co"), filepath.Join(t.TempDir(), "co"), filepath.Join(t.TempDir(), "pr")
	for _, d := range []string{a, b, pr} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "go.mod"), []byte("module example.com/x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ok := []string{"SQLBENCH_TARGET=zombiezen", "SQLBENCH_WORKLOADS=PreparedQueryRow", "SQLBENCH_BASE_DIR=" + a,
		"SQLBENCH_PR_DIR=" + pr}
	for _, c := range []struct {
		env  []string
		code int
		want string
	}{
		{[]string{"SQLBENCH_TARGET="}, 2, "SQLBENCH_TARGET is not set"},
		{[]string{"SQLBENCH_WORKLOADS="}, 2, "SQLBENCH_WORKLOADS is not set"},
		{[]string{"SQLBENCH_PR_DIR=" + filepath.Dir(b)}, 2, "holds no go.mod"},
		{[]string{"SQLBENCH_PR_DIR=" + b}, 2, "are both named co: give them different names"},
		{[]string{"SQLBENCH_INSTR_THRESHOLD=lots"}, 2, "SQLBENCH_INSTR_THRESHOLD"},
		{[]string{"SQLBENCH_TIME_COUNT=1"}, 2, "SQLBENCH_TIME_COUNT"},
		{[]string{"SQLBENCH_INSTR_SCALE=-1"}, 2, "SQLBENCH_INSTR_SCALE: want a number above 0"},
		{[]string{"SQLBENCH=/nonexistent/sqlbench"}, 3, "no sqlbench"},
	} {
		code, _, stderr := runCIScript(t, append(append([]string{}, ok...), c.env...)...)
		msg := strings.TrimSpace(stderr)
		if code != c.code || strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and one line saying %q", c.env, code, msg, c.code, c.want)
		}
	}
}
