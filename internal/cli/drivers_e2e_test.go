package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/testenv"
	"github.com/sqlbench/sqlbench/targets"
)

// TestRunQuickOnTheGosqliteTargets runs the classic suite and the prepared
// bulk path on eatonphil/gosqlite and bvinc/go-sqlite-lite beside mattn, each
// in its own runner binary (they bundle SQLite's C source), and checks that
// every cell ran and that the results file names the module versions and
// the SQLite each links.
func TestRunQuickOnTheGosqliteTargets(t *testing.T) {
	env, stdout, stderr, cache, tmp := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	bulk := "BulkInsert/shape=3x8/path=prepared/args=bytes"
	code := Main(context.Background(),
		[]string{"run", "--targets", "eatonphil,bvinc,mattn", "--workloads", "classic," + bulk,
			"--quick", "--count", "2", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	for _, name := range []string{"eatonphil", "bvinc", "mattn"} {
		spec, _ := targets.Lookup(name)
		for _, w := range bench.Workloads() {
			if (w.Family != "classic" && w.ID() != bulk) || !w.RunsOn(bench.SQLite) {
				continue
			}
			if id := w.Name + "/" + spec.Key(); w.Keys == "" && runs[id] != 2 {
				t.Errorf("%s: %d runs, want 2", id, runs[id])
			}
		}
	}
	for _, name := range []string{"eatonphil", "bvinc", "mattn"} {
		spec, _ := targets.Lookup(name)
		if id := "BulkInsert/" + spec.Key() + "/shape=3x8/path=prepared/args=bytes"; runs[id] != 2 {
			t.Errorf("%s: %d runs, want 2", id, runs[id])
		}
	}
	for key, want := range map[string]string{
		"eatonphil-module": "github.com/eatonphil/gosqlite v0.10.1-0.20250409163211-9c47979bc5b1",
		"bvinc-module":     "github.com/bvinc/go-sqlite-lite v0.6.1",
		"eatonphil-sqlite": "3.46.0",
		"bvinc-sqlite":     "3.28.0",
	} {
		if got := cfg.GetConfig(key); got != want {
			t.Errorf("config %s = %q, want %q", key, got, want)
		}
	}
	if got := cfg.GetConfig("bvinc-sqlite-session"); !strings.Contains(got, "journal_mode=delete") ||
		!strings.Contains(got, "synchronous=2") {
		t.Errorf("bvinc-sqlite-session = %q, want the session settings read back", got)
	}
	assertEmpty(t, tmp)
}

// TestRunGoMySQLOnMariaDB runs go-mysql beside go-sql-driver on a
// throwaway MariaDB over TCP and the unix socket: a simple call with an
// interpolated argument, a prepared echo of five types, a single-row
// insert, a prepared echo shared on a pool of four, and both bulk paths it
// has.
func TestRunGoMySQLOnMariaDB(t *testing.T) {
	needServers(t, servers.KindMariaDB)
	env, stdout, stderr, cache, tmp := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	ws := []string{"SimpleExec", "AutoQueryRow", "SimpleQueryRow", "EchoMixed5",
		"SingleInsert/data=random/conns=2/prepare=each",
		"PreparedQueryConcurrent/conns=4", "BulkInsert/shape=3x8/path=prepared/args=bytes",
		"BulkInsert/shape=3x8/path=multirow/args=bytes"}
	code := Main(context.Background(),
		[]string{"run", "--db", "mariadb", "--targets", "go-mysql,mysql", "--workloads", strings.Join(ws, ","),
			"--quick", "--count", "2", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	for _, w := range ws {
		name, keys, _ := strings.Cut(w, "/")
		for _, key := range []string{"db=mariadb/driver=go-mysql/api=native",
			"db=mariadb/driver=go-sql-driver/api=sql"} {
			for _, n := range []string{"tcp", "unix"} {
				id := name + "/" + key + "/net=" + n
				if keys != "" {
					id += "/" + keys
				}
				if runs[id] != 2 {
					t.Errorf("%s: %d runs, want 2", id, runs[id])
				}
			}
		}
	}
	if got := cfg.GetConfig("go-mysql-module"); got != "github.com/go-mysql-org/go-mysql v1.13.0" {
		t.Errorf("go-mysql-module = %q", got)
	}
	assertEmpty(t, tmp)
}

// TestRunSaysSqinnNeedsItsProgram names sqinn with $SQINN_PATH pointing at
// no executable: the run goes on without it and says exactly that.
func TestRunSaysSqinnNeedsItsProgram(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	env.Getenv = func(k string) string {
		if k == "SQINN_PATH" {
			return "/nonexistent/sqinn"
		}
		return os.Getenv(k)
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--targets", "mattn,sqinn", "--workloads", "SimpleExec",
		"--quick", "--count", "1", "-o", out, "--cache", cache}, env)
	if code != ExitPartial {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := "skipped sqinn: needs the sqinn program: $SQINN_PATH (/nonexistent/sqinn) is not an executable"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
}

// TestSqinnIsAvailableWithAnExecutable checks the availability rule for a
// helper program: $SQINN_PATH naming an executable file, or sqinn on PATH.
func TestSqinnIsAvailableWithAnExecutable(t *testing.T) {
	spec, _ := targets.Lookup("sqinn")
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to stand for an executable file")
	}
	for _, c := range []struct {
		env, onPath, want string
	}{
		{"", "", "needs the sqinn program: set SQINN_PATH or put it on PATH (scripts/sqinn in a clone builds it: " +
			"docs/targets.md)"},
		{"", "/usr/local/bin/sqinn", ""},
		{sh, "", ""},
		{"/nonexistent/sqinn", "/usr/local/bin/sqinn",
			"needs the sqinn program: $SQINN_PATH (/nonexistent/sqinn) is not an executable"},
	} {
		env := session.Host{
			Getenv: func(k string) string {
				if k == "SQINN_PATH" {
					return c.env
				}
				return ""
			},
			LookPath: func(name string) (string, error) {
				switch {
				case name == "go":
					return "/usr/bin/go", nil
				case name == "sqinn" && c.onPath != "":
					return c.onPath, nil
				case strings.Contains(name, "/"):
					return exec.LookPath(name)
				}
				return "", exec.ErrNotFound
			},
		}
		if got := session.Unavailable(spec, env); got != c.want {
			t.Errorf("SQINN_PATH=%q, sqinn on PATH %q: %q, want %q", c.env, c.onPath, got, c.want)
		}
	}
}

// TestRunQuickOnSqinn runs the Sqinn-Go suite on sqinn beside mattn with the
// real sqinn program ($SQINN_PATH, which scripts/test builds), and checks
// that every cell ran and that the results record the program's version as
// the program itself prints it.
func TestRunQuickOnSqinn(t *testing.T) {
	path, err := exec.LookPath("sqinn")
	if set := os.Getenv("SQINN_PATH"); set != "" {
		if path, err = exec.LookPath(set); err != nil {
			t.Fatalf("SQINN_PATH is set but unusable: %v", err)
		}
	}
	testenv.NeedSqinn(t, err)
	version, err := exec.Command(path, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", path, err)
	}
	env, stdout, stderr, cache, tmp := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--targets", "sqinn,mattn", "--workloads", "sqinn",
		"--quick", "--count", "2", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	cells := 0
	for _, name := range []string{"sqinn", "mattn"} {
		spec, _ := targets.Lookup(name)
		for _, w := range bench.Workloads() {
			if w.Family != "sqinn" {
				continue
			}
			id := w.Name + "/" + spec.Key()
			if w.Keys != "" {
				id += "/" + w.Keys
			}
			if cells++; runs[id] != 2 {
				t.Errorf("%s: %d runs, want 2", id, runs[id])
			}
		}
	}
	if cells < 2*13 {
		t.Errorf("%d cells of the sqinn family, want the suite's 13 on each target", cells)
	}
	if want, got := strings.TrimSpace(string(version))+" (protocol 1)", cfg.GetConfig("sqinn-version"); got != want {
		t.Errorf("config sqinn-version = %q, want %q", got, want)
	}
	assertEmpty(t, tmp)
}
