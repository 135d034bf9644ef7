package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

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
		checkScriptResults(t, out, 2, 7, "Script/db=sqlite/driver=mattn/api=sql",
			"Script/db=sqlite/driver=xerial/api=jdbc")
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
				args := append(
					[]string{"run", "--db", c.db, "--dsn", c.db + "=" + srv.DSN("tcp"), "--targets", c.targets,
						"--count", "2", "--scale", "0.01", "--clients", "2", "--query-mode", ex.mode, "-o", out,
						"--cache",
						cache}, ex.args...)
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
