package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/testenv"
	"github.com/sqlbench/sqlbench/targets"
)

// realEnv is this machine, with the working directory at the repository
// root, runners cached in a directory shared by test runs, and a private
// TMPDIR whose emptiness after a run shows the temp databases were removed.
// The TMPDIR is world-traversable, as /tmp is, so that servers started as
// root can drop to the mysql and postgres users inside it.
func realEnv(t *testing.T) (env Env, stdout, stderr *bytes.Buffer, cache, tmp string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cache = filepath.Join(os.TempDir(), "sqlbench-test-runners")
	t.TempDir() // fixes the test's own temp root before TMPDIR changes
	tmp, err = os.MkdirTemp("", "sqlbench-e2e-")
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("TMPDIR", tmp)
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	return Env{Stdout: stdout, Stderr: stderr, Getenv: os.Getenv, LookPath: exec.LookPath, Dir: root}, stdout, stderr,
		cache, tmp
}

// needServers skips t when a server it starts is not installed, or fails
// it under SQLBENCH_SERVERS=1 (testenv).
func needServers(t *testing.T, kinds ...servers.Kind) {
	t.Helper()
	for _, k := range kinds {
		testenv.Need(t, "a "+string(k)+" server", servers.Installed(k))
	}
}

// readRuns reads a results file and returns its run count per benchmark
// name, and its last result, which carries the file's configuration.
func readRuns(t *testing.T, path string) (map[string]int, *benchfmt.Result) {
	t.Helper()
	set, err := benchfile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Results) == 0 {
		t.Fatalf("%s holds no results", path)
	}
	runs := map[string]int{}
	for _, r := range set.Results {
		runs[r.Name.String()]++
	}
	return runs, set.Results[len(set.Results)-1]
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("left behind in the temp dir: %s", e.Name())
	}
}

// TestRunQuickOnEveryAvailableTarget is the end-to-end check: real runner
// builds, real SQLite files, every target that can be built here, and the
// real benchstat reading the results.
func TestRunQuickOnEveryAvailableTarget(t *testing.T) {
	env, stdout, stderr, cache, tmp := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--quick", "--count", "2", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	for _, spec := range targets.All() {
		if spec.DB != bench.SQLite || session.Unavailable(spec, env.session()) != "" {
			continue
		}
		for _, w := range bench.Workloads() {
			if w.Family != "classic" || !w.RunsOn(spec.DB) {
				continue
			}
			name := w.Name + "/" + spec.Key()
			if runs[name] != 2 {
				t.Errorf("%s: %d runs in the results file, want 2", name, runs[name])
			}
		}
		for _, key := range []string{spec.Name + "-module", spec.Name + "-sqlite"} {
			if v := cfg.GetConfig(key); v == "" {
				t.Errorf("results file has no %q config line", key)
			}
		}
		if !hasColumn(stdout.String(), spec.Name) {
			t.Errorf("summary table has no column for %s", spec.Name)
		}
	}
	for _, key := range []string{"goos", "cpu", "cores", "kernel", "go", "sqlbench-command", "sqlite-journal-mode"} {
		if cfg.GetConfig(key) == "" {
			t.Errorf("results file has no %q config line", key)
		}
	}
	if !strings.Contains(stdout.String(), "results: "+out) {
		t.Errorf("the results path is not printed:\n%s", stdout)
	}
	// --quick keeps 5 slices: 2 runs x 5 slices = 10 passes, each probed.
	if got := cfg.GetConfig("slices"); got != "5" {
		t.Errorf("slices config line %q at --quick, want 5", got)
	}
	if !strings.Contains(strings.Join(strings.Fields(stdout.String()), " "),
		"(a CPU loop timed before each of the 10 passes)") {
		t.Errorf("the noise line does not give the machine's drift over 10 passes:\n%s", stdout)
	}
	assertEmpty(t, tmp)
	base := strings.TrimSuffix(out, ".txt")
	if !strings.Contains(stdout.String(), "reports: "+base+".md, "+base+".html") {
		t.Errorf("the report paths are not printed:\n%s", stdout)
	}
	for _, ext := range []string{".md", ".html"} {
		b, err := os.ReadFile(base + ext)
		if err != nil {
			t.Errorf("report beside the results: %v", err)
			continue
		}
		col := map[string]string{".md": "| mattn | modernc |", ".html": "<th>mattn</th><th>modernc</th>"}[ext]
		for _, want := range []string{col, "SimpleQueryRow", "classic · sqlite", "mattn-module"} {
			if !bytes.Contains(b, []byte(want)) {
				t.Errorf("%s lacks %q", base+ext, want)
			}
		}
	}

	bs := exec.Command("go", "tool", "benchstat", "-col", "/target", "-ignore", "/driver,/api", out)
	bs.Dir = env.Dir
	bsOut, err := bs.CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, bsOut)
	}
	for _, want := range []string{"SimpleQueryRow/db=sqlite ", "mattn", "modernc", "ops/s", "allocs/op", "p99-sec/op"} {
		if !strings.Contains(string(bsOut), want) {
			t.Errorf("benchstat output lacks %q:\n%s", want, bsOut)
		}
	}
}

// TestRunReportsANamedTargetThatCannotRun checks that an unavailable target
// costs its cells, not the run, and shows in the exit status.
func TestRunReportsANamedTargetThatCannotRun(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	env.Getenv = func(k string) string {
		if k == "SQINN_PATH" {
			return "/nonexistent/sqinn" // sqinn cannot run, wherever the test runs
		}
		return os.Getenv(k)
	}
	code := Main(context.Background(), []string{"run", "--targets", "mattn,sqinn", "--workloads", "SimpleExec",
		"--quick", "--count", "1", "-o", out, "--cache", cache}, env)
	if code != ExitPartial {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr.String(), "skipped sqinn: needs the sqinn program") {
		t.Errorf("stderr does not say why sqinn was skipped:\n%s", stderr)
	}
	set, err := benchfile.ReadFile(out)
	if err != nil || len(set.Results) != 1 {
		t.Fatalf("results: %v, %d lines; want mattn's one run", err, len(set.Results))
	}
}

// TestInterruptKeepsFinishedResults cancels a run after its first result, as
// Ctrl-C does, and checks what is left: the finished results, and no runner,
// server, data dir or SQLite file. Runs are whole (--slices 1) so that the
// first result comes early; with slices, runs finish in the last passes.
func TestInterruptKeepsFinishedResults(t *testing.T) {
	needServers(t, servers.KindPostgres)
	env, _, stderr, cache, tmp := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go cancelAtFirstResult(cancel, out)
	code := Main(ctx, []string{"run", "--db", "sqlite,postgres", "--targets", "mattn,modernc,pgx-native", "--workloads",
		"SimpleQueryRow",
		"--scale", "1", "--count", "5", "--slices", "1", "-o", out, "--cache", cache}, env)
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want 130\nstderr:\n%s", code, stderr)
	}
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatalf("the interrupted results file does not parse: %v", err)
	}
	if n := len(set.Results); n < 1 || n >= 20 {
		t.Errorf("%d results kept, want the ones finished before the interrupt", n)
	}
	assertEmpty(t, tmp) // SQLite files and the server's data dir
	// The session's runners (told from other tests' runners of the shared
	// cache by the TMPDIR they inherit) and its server (whose data dir is
	// in tmp).
	if live := liveRunners(tmp); len(live) > 0 {
		t.Errorf("runners left running: %v", live)
	}
	if ps, _ := exec.Command("pgrep", "-f", tmp).Output(); len(bytes.TrimSpace(ps)) > 0 {
		t.Errorf("processes left running (%s): %s", tmp, ps)
	}
}

// TestSQLiteSettingsReachEveryTarget runs with a non-default journal mode
// and synchronous level and expects them in the results file, both as
// requested and as each target's connection reads them back.
func TestSQLiteSettingsReachEveryTarget(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(),
		[]string{"run", "--targets", "mattn,modernc,zombiezen", "--workloads", "SimpleQueryRow",
			"--quick", "--count", "1", "--sqlite-journal", "wal", "--sqlite-sync", "normal", "-o", out, "--cache",
			cache},
		env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	_, cfg := readRuns(t, out)
	for key, want := range map[string]string{"sqlite-journal-mode": "WAL", "sqlite-synchronous": "NORMAL",
		"sqlite-foreign-keys": "ON"} {
		if got := cfg.GetConfig(key); got != want {
			t.Errorf("config %s = %q, want %q", key, got, want)
		}
	}
	for _, target := range []string{"mattn", "modernc", "zombiezen"} {
		got := cfg.GetConfig(target + "-sqlite-session")
		if !strings.Contains(got, "journal_mode=wal") || !strings.Contains(got, "synchronous=1") ||
			!strings.Contains(got, "foreign_keys=1") {
			t.Errorf("config %s-sqlite-session = %q, want WAL, synchronous 1 (normal), foreign keys on", target, got)
		}
	}
}

// TestSQLiteSyncDriverLeavesEachDriversOwn runs with --sqlite-sync driver,
// as the Sqinn-Go study's programs ran: no synchronous level is set, so
// mattn's connections read back the NORMAL its driver sets and
// zombiezen's SQLite's default, FULL, and the header says so.
func TestSQLiteSyncDriverLeavesEachDriversOwn(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--targets", "mattn,zombiezen", "--workloads", "SimpleQueryRow",
		"--quick", "--count", "1", "--sqlite-sync", "driver", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	_, cfg := readRuns(t, out)
	if got := cfg.GetConfig("sqlite-synchronous"); !strings.HasPrefix(got, "each driver's own") {
		t.Errorf("config sqlite-synchronous = %q, want each driver's own", got)
	}
	for target, want := range map[string]string{"mattn": "synchronous=1", "zombiezen": "synchronous=2"} {
		if got := cfg.GetConfig(target + "-sqlite-session"); !strings.Contains(got, want) {
			t.Errorf("config %s-sqlite-session = %q, want %s", target, got, want)
		}
	}
}

// hasColumn reports whether a text table in out has a column headed name
// (a target's name as --targets takes it): a header line, one starting
// with "workload", with name as one of its fields.
func hasColumn(out, name string) bool {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == "workload" && slices.Contains(f, name) {
			return true
		}
	}
	return false
}
