package cli

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestTypedRowsOnTheJDBCTargets runs the typed family's Java twin on every
// JDBC target, against throwaway MariaDB and PostgreSQL servers and a
// SQLite file: every cell passes its value checks (a failed cell is a
// non-zero exit) and has its runs. The Go drivers' cells are checked by
// targettest.TypedRows in their own packages.
func TestTypedRowsOnTheJDBCTargets(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	needJDK(t)
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--db", "sqlite,mariadb,postgres",
		"--targets", "jdbc-sqlite,jdbc-mysql,jdbc-mariadb,jdbc-postgres", "--workloads", "typed",
		"--quick", "--count", "1", "--slices", "1", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, _ := readRuns(t, out)
	keys := map[string][]string{
		"db=sqlite/driver=xerial/api=jdbc":        {""},
		"db=mariadb/driver=connectorj/api=jdbc":   {"/net=tcp", "/net=unix"},
		"db=mariadb/driver=mariadb-java/api=jdbc": {"/net=tcp", "/net=unix"},
		"db=postgres/driver=pgjdbc/api=jdbc":      {"/net=tcp", "/net=unix"},
	}
	for key, nets := range keys {
		for _, w := range []string{"TypedInsert", "TypedQuery/scan=string", "TypedQuery/scan=bytes",
			"TypedWideInsert", "TypedWideQuery"} {
			for _, n := range nets {
				if name := w + "/" + key + n; runs[name] != 1 {
					t.Errorf("%s: %d runs, want 1", name, runs[name])
				}
			}
		}
	}
}
