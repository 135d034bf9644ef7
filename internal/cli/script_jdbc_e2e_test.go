package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// The script workloads on the JDBC targets: the shipped examples run by the
// JDBC runner beside a Go target of the same database in one session, whose
// verification pass compares the JDBC runner's digests (rows and value
// checksums per statement) with the Go target's: a mismatch fails the
// JDBC cell, which then has no results, so the run counts below fail too.

// checkNoMismatch fails on a verification failure in a session's output.
func checkNoMismatch(t *testing.T, out string) {
	t.Helper()
	if strings.Contains(out, "verification:") {
		t.Errorf("a verification failed:\n%s", out)
	}
}

func TestScriptExamplesOnJDBCSQLite(t *testing.T) {
	needJDK(t)
	env, stdout, stderr, cache, tmp := realEnv(t)
	for _, ex := range []struct {
		args []string
		mode string
	}{{tpcbArgs, "simple"}, {webArgs, "extended"}, {webArgs, "prepared"}} {
		stdout.Reset()
		stderr.Reset()
		out := filepath.Join(t.TempDir(), "out.txt")
		args := append([]string{"run", "--targets", "mattn,jdbc-sqlite", "--count", "2", "--scale", "0.01",
			"--clients", "2", "--query-mode", ex.mode, "-o", out, "--cache", cache}, ex.args...)
		if code := Main(context.Background(), args, env); code != ExitOK {
			t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", ex.mode, code, stdout, stderr)
		}
		checkNoMismatch(t, stdout.String()+stderr.String())
		checkScriptResults(t, out, 2, 7, "Script/db=sqlite/driver=mattn/api=sql", "Script/db=sqlite/driver=xerial/api=jdbc")
	}
	assertEmpty(t, tmp)
}

// TestScriptExamplesOnJDBCServers runs both examples on a user's MariaDB
// and PostgreSQL with every JDBC target of the database beside a Go one;
// the JDBC runner's namespaces are dropped like the Go runner's.
func TestScriptExamplesOnJDBCServers(t *testing.T) {
	needJDK(t)
	for _, c := range []struct {
		kind    servers.Kind
		db      string
		targets string
		keys    []string
	}{
		{servers.KindMariaDB, "mariadb", "mysql,jdbc-mysql,jdbc-mariadb",
			[]string{"driver=go-sql-driver/api=sql", "driver=connectorj/api=jdbc", "driver=mariadb-java/api=jdbc"}},
		{servers.KindPostgres, "postgres", "pgx,jdbc-postgres",
			[]string{"driver=pgx/api=sql", "driver=pgjdbc/api=jdbc"}},
	} {
		t.Run(c.db, func(t *testing.T) {
			env, stdout, stderr, cache, tmp := realEnv(t)
			srv, db := userDB(t, c.kind, tmp, "CREATE TABLE accounts (aid INT PRIMARY KEY, abalance INT)",
				"INSERT INTO accounts VALUES (1, 42)")
			for _, ex := range []struct {
				args []string
				mode string
			}{{tpcbArgs, "simple"}, {webArgs, "extended"}, {webArgs, "prepared"}} {
				stdout.Reset()
				stderr.Reset()
				out := filepath.Join(t.TempDir(), "out.txt")
				args := append([]string{"run", "--db", c.db, "--dsn", c.db + "=" + srv.DSN("tcp"), "--targets", c.targets,
					"--count", "2", "--scale", "0.01", "--clients", "2", "--query-mode", ex.mode, "-o", out, "--cache", cache}, ex.args...)
				if code := Main(context.Background(), args, env); code != ExitOK {
					t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", ex.mode, code, stdout, stderr)
				}
				checkNoMismatch(t, stdout.String()+stderr.String())
				var names []string
				for _, k := range c.keys {
					names = append(names, "Script/db="+c.db+"/"+k+"/net=tcp")
				}
				checkScriptResults(t, out, 2, 7, names...)
			}
			if names := tablesOf(t, db, c.kind); strings.Join(names, " ") != "accounts" {
				t.Errorf("tables after the runs: %v; want the user's accounts only", names)
			}
			q := "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name LIKE 'sqlbench%'"
			var left int
			if err := db.QueryRow(q).Scan(&left); err != nil || left != 0 {
				t.Errorf("%d sqlbench schemas or databases left (%v)", left, err)
			}
		})
	}
}

// TestScriptJDBCVerificationMismatch: mattn and xerial link different
// SQLite versions, so sqlite_version() differs: the JDBC target's cell
// fails on its digest, naming the statement, and the Go target runs.
func TestScriptJDBCVerificationMismatch(t *testing.T) {
	needJDK(t)
	env, stdout, stderr, cache, _ := realEnv(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "version.sql")
	if err := os.WriteFile(p, []byte("SELECT 1;\n-- the library's version\nSELECT sqlite_version();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.txt")
	code := Main(context.Background(), []string{"run", "--targets", "mattn,jdbc-sqlite", "--count", "1", "--script", p,
		"-o", out, "--cache", cache}, env)
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatalf("exit %d, %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	if len(set.Results) > 0 {
		r := set.Results[0]
		if m, j := r.GetConfig("mattn-sqlite"), r.GetConfig("jdbc-sqlite-sqlite"); m == j {
			t.Skipf("mattn and xerial link the same SQLite (%s): no difference to find", m)
		}
	}
	want := "Script/db=sqlite/driver=xerial/api=jdbc: verification: statement " + p + ":3 returned other values than on mattn"
	if code != ExitPartial || !strings.Contains(stdout.String(), want) {
		t.Errorf("exit %d; want 1 and %q\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
	}
	if len(set.Results) != 1 || !strings.Contains(set.Results[0].Name.String(), "driver=mattn") {
		t.Errorf("results: want mattn's one run only, have %d", len(set.Results))
	}
}
