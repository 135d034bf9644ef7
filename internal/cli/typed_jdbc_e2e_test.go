package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestTypedRowsOnTheJDBCTargets runs the typed family's Java twin on every
// JDBC target, against throwaway MariaDB and PostgreSQL servers and a
// SQLite file: every cell passes its value checks and has its runs, but
// for MySQL Connector/J's on the typed table, which fail theirs on the
// time's microseconds (MariaDB announces itself as 5.5.5-10.x, and
// Connector/J takes fractional seconds for unsupported below MySQL 5.6.4;
// docs/typed-rows.md). The Go drivers' cells are checked by
// targettest.TypedRows in their own packages.
func TestTypedRowsOnTheJDBCTargets(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	needJDK(t)
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--db", "sqlite,mariadb,postgres",
		"--targets", "jdbc-sqlite,jdbc-mysql,jdbc-mariadb,jdbc-postgres", "--workloads", "typed",
		"--quick", "--count", "1", "--slices", "1", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitPartial {
		t.Fatalf("exit %d, want %d (Connector/J's failed cells)\nstdout:\n%s\nstderr:\n%s", code, ExitPartial,
			stdout, stderr)
	}
	all := stdout.String() + stderr.String()
	fails := regexp.MustCompile(`(Typed\S+): FAIL`).FindAllStringSubmatch(all, -1)
	for _, f := range fails {
		if !strings.Contains(f[1], "/jdbc-mysql/") || strings.HasPrefix(f[1], "TypedWide") {
			t.Errorf("%s failed; only Connector/J's cells of the typed table should", f[1])
		}
	}
	if len(fails) == 0 || !strings.Contains(all, "ts = ") {
		t.Errorf("no Connector/J cell failed on the time (ts = ...):\n%s", all)
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
			if strings.Contains(key, "connectorj") && !strings.Contains(w, "Wide") {
				continue // failed, above
			}
			for _, n := range nets {
				// A workload's keys follow the target's (and the transport's).
				name, keys, _ := strings.Cut(w, "/")
				name += "/" + key + n
				if keys != "" {
					name += "/" + keys
				}
				if runs[name] != 1 {
					t.Errorf("%s: %d runs, want 1", name, runs[name])
				}
			}
		}
	}
}
