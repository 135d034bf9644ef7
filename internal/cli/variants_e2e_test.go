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

	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestDriverVersionsInOneSession runs, in one interleaved session on a real
// PostgreSQL, pgx-native as the catalogue pins it beside two variants: an
// older release (v5.5.5, from the module proxy) and a local checkout of
// the pinned release with a deliberate slowdown (a 200 µs sleep at the
// start of every Conn.Exec). Each is a target of its own, labelled
// driver=pgx@<version> and recorded with its exact version and sum (or
// its directory and content hash); --baseline shows the checkout slower
// with an interval that excludes 1 (ten runs: with six, the interval
// spans them all, and one run a load spike slowed would make it unclear).
func TestDriverVersionsInOneSession(t *testing.T) {
	needServers(t, servers.KindPostgres)
	env, stdout, stderr, cache, _ := realEnv(t)
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	pinned := pinnedVersion(t, "github.com/jackc/pgx/v5")
	dir := filepath.Join(t.TempDir(), "pgx")
	// CopyFS writes the module cache's read-only files writable.
	if err := os.CopyFS(dir,
		os.DirFS(filepath.Join(strings.TrimSpace(string(gomodcache)), "github.com/jackc/pgx/v5@"+pinned))); err != nil {
		t.Fatal(err)
	}
	conn := filepath.Join(dir, "conn.go")
	src, err := os.ReadFile(conn)
	if err != nil {
		t.Fatal(err)
	}
	exec := regexp.MustCompile(`(?m)^func \(c \*Conn\) Exec\(ctx context.Context, sql string, arguments \.\.\.any\) ` +
		`\(pgconn.CommandTag, error\) \{\n`)
	if !exec.Match(src) {
		t.Fatalf("no Conn.Exec to slow down in pgx %s's conn.go", pinned)
	}
	src = exec.ReplaceAll(src,
		[]byte("$0\ttime.Sleep(200 * time.Microsecond) // sqlbench's test: a deliberate slowdown\n"))
	if !bytes.Contains(src, []byte(`"time"`)) {
		t.Fatalf("pgx %s's conn.go does not import time", pinned)
	}
	if err := os.WriteFile(conn, src, 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--db", "postgres", "--net", "tcp",
		"--targets", "pgx-native@v5.5.5,pgx-native@" + dir + ",pgx-native", "--workloads", "SimpleExec",
		"--quick", "--count", "10", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	for _, driver := range []string{"pgx", "pgx@v5.5.5", "pgx@local-pgx"} {
		if name := "SimpleExec/db=postgres/driver=" + driver + "/api=native/net=tcp"; runs[name] != 10 {
			t.Errorf("%s: %d runs, want 10", name, runs[name])
		}
	}
	if got := cfg.GetConfig("pgx-native@v5.5.5-variant"); !strings.HasPrefix(got,
		"github.com/jackc/pgx/v5@v5.5.5 h1:") {
		t.Errorf("the release's record %q: want its version and sum", got)
	}
	if got := cfg.GetConfig("pgx-native@v5.5.5-module"); got != "github.com/jackc/pgx/v5 v5.5.5" {
		t.Errorf("the release's runner reports pgx %q", got)
	}
	if got := cfg.GetConfig("pgx-native@local-pgx-variant"); !strings.HasPrefix(got, "github.com/jackc/pgx/v5 => "+dir+
		" content ") {
		t.Errorf("the checkout's record %q: want its directory and content hash", got)
	}
	if got := cfg.GetConfig("pgx-native-module"); got != "github.com/jackc/pgx/v5 "+pinned {
		t.Errorf("the catalogue target's runner reports pgx %q, want %s", got, pinned)
	}

	var rep, rerr bytes.Buffer
	if code := Main(context.Background(), []string{"report", out, "--baseline", "pgx-native", "--wide"},
		fakeEnv(&rep, &rerr)); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, rerr.String())
	}
	line := regexp.MustCompile(`(?m)^\s*SimpleExec/net=tcp\s+pgx-native@local-pgx\s+([0-9.]+)×\s+([0-9.]+)–([0-9.]+)` +
		`×.*\b(slower|faster|equivalent|undecided)\b.*$`).FindStringSubmatch(rep.String())
	if line == nil {
		t.Fatalf("no ratio of the checkout to the baseline in:\n%s", rep.String())
	}
	if line[4] != "slower" {
		t.Errorf("the slowed checkout: ratio %s× [%s–%s×], verdict %q; want slower, its interval below 1\n%s", line[1],
			line[2], line[3], line[4], rep.String())
	}
}

// TestVariantThatDoesNotExist: a release the module proxy does not serve is
// one line naming the target, the version and what the proxy said, exit
// 2, before anything runs or is written.
func TestVariantThatDoesNotExist(t *testing.T) {
	var out, errb bytes.Buffer
	dir := t.TempDir()
	code := Main(context.Background(),
		[]string{"run", "--targets", "mattn@v1.99.77", "-o", filepath.Join(dir, "r.txt")}, fakeEnv(&out, &errb))
	if code != ExitUsage {
		t.Fatalf("exit %d, want %d\n%s", code, ExitUsage, errb.String())
	}
	msg := strings.TrimSpace(errb.String())
	if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, "mattn@v1.99.77") ||
		!strings.Contains(msg, "does not resolve") {
		t.Errorf("message %q: want one line naming the target and version and saying it does not resolve", msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.txt")); err == nil {
		t.Error("a results file was written")
	}
	for _, c := range []struct{ arg, want string }{
		{"jdbc-postgres@./pgjdbc", "a JDBC driver cannot be built from a checkout"},
		{"mattn@latest", `"latest" is neither a version (v1.2.3) nor a directory`},
		{"mattn@./no/such/dir", "is not a directory"},
		{"nosuch@v1.0.0", `unknown target "nosuch"`},
	} {
		out.Reset()
		errb.Reset()
		if code := Main(context.Background(), []string{"run", "--db", "sqlite,postgres", "--targets", c.arg,
			"--dry-run"}, fakeEnv(&out, &errb)); code != ExitUsage || !strings.Contains(errb.String(), c.want) {
			t.Errorf("--targets %s: exit %d, %q; want exit %d saying %q", c.arg, code, errb.String(), ExitUsage, c.want)
		}
	}
}

// TestJDBCDriverVersionInOneSession runs pgjdbc as jdbc/pom.xml pins it
// beside its release 42.7.3 in one session on a real PostgreSQL: the
// variant's runner is a jar of its own whose driver reports 42.7.3, and
// a version Maven Central does not serve is one line, exit 2.
func TestJDBCDriverVersionInOneSession(t *testing.T) {
	needServers(t, servers.KindPostgres)
	needJDK(t)
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--db", "postgres", "--net", "tcp",
		"--targets", "jdbc-postgres@42.7.3,jdbc-postgres", "--workloads", "SimpleExec",
		"--quick", "--count", "2", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	for _, driver := range []string{"pgjdbc", "pgjdbc@42.7.3"} {
		if name := "SimpleExec/db=postgres/driver=" + driver + "/api=jdbc/net=tcp"; runs[name] != 2 {
			t.Errorf("%s: %d runs, want 2", name, runs[name])
		}
	}
	if got := cfg.GetConfig("jdbc-postgres@42.7.3-driver"); got != "PostgreSQL JDBC Driver 42.7.3" {
		t.Errorf("the variant's runner reports %q", got)
	}
	if got := cfg.GetConfig("jdbc-postgres@42.7.3-variant"); got != "org.postgresql:postgresql:42.7.3 (Maven Central)" {
		t.Errorf("the variant's record %q", got)
	}
	stdout.Reset()
	stderr.Reset()
	code = Main(context.Background(), []string{"run", "--db", "postgres", "--targets", "jdbc-postgres@41.99.99", "-o",
		filepath.Join(t.TempDir(), "r.txt"), "--cache", cache}, env)
	if msg := strings.TrimSpace(stderr.String()); code != ExitUsage || strings.Contains(msg, "\n") ||
		!strings.Contains(msg, "org.postgresql:postgresql:41.99.99 does not resolve") {
		t.Errorf("a pgjdbc Maven Central lacks: exit %d, %q; want exit 2 and one line saying it does not resolve", code,
			msg)
	}
}

// pinnedVersion is the version of module that go.mod requires.
func pinnedVersion(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", module).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
