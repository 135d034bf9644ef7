package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestPoolFamilyOnMariaDB runs the pool family on a throwaway MariaDB
// through database/sql (go-sql-driver) and HikariCP over MariaDB
// Connector/J (jdbc-mariadb-hikari), as TestPoolFamilyOnPostgres does on
// PostgreSQL: every cell has its run, every row checked, each pool's wait
// unit on its result line (pool-waits/op from database/sql's counters,
// acquire-ns/op from HikariCP's metrics tracker), the waits there where 64
// threads share 4 connections and more than where one thread has them.
func TestPoolFamilyOnMariaDB(t *testing.T) {
	needServers(t, servers.KindMariaDB)
	needJDK(t)
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--db", "mariadb", "--net", "tcp",
		"--targets", "mysql,jdbc-mariadb-hikari", "--workloads", "pool",
		"--quick", "--count", "1", "--slices", "1", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	value := func(driver, keys, unit string) (float64, bool) {
		for _, r := range set.Results {
			name := r.Name.String()
			if !strings.HasPrefix(name, "PoolQuery/") || !strings.Contains(name, "/driver="+driver+"/") ||
				!strings.HasSuffix(name, keys) {
				continue
			}
			for _, v := range r.Values {
				if v.OrigUnit == unit || v.Unit == unit {
					return v.Value, true
				}
			}
		}
		return 0, false
	}
	for _, c := range []struct{ target, unit string }{ // target: its driver= key
		{"go-sql-driver", "pool-waits/op"}, {"mariadb-java-hikari", "acquire-ns/op"},
	} {
		for _, size := range []string{"4", "64"} {
			for _, n := range []string{"1", "4", "16", "64"} {
				if _, ok := value(c.target, "/pool="+size+"/clients="+n, c.unit); !ok {
					t.Errorf("%s pool=%s/clients=%s: no %s on its result line", c.target, size, n, c.unit)
				}
			}
		}
		crowded, _ := value(c.target, "/pool=4/clients=64", c.unit)
		alone, _ := value(c.target, "/pool=4/clients=1", c.unit)
		if crowded <= alone || crowded <= 0 {
			t.Errorf("%s: %s %v with 64 threads on 4 connections, %v with 1: want more with 64",
				c.target, c.unit, crowded, alone)
		}
		t.Logf("%s: %s %v with 64 threads on 4 connections, %v with 1", c.target, c.unit, crowded, alone)
	}
}
