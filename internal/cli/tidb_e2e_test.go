package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/targets"
)

// TestRunOnTiDB runs the classic suite and the single inserts on every
// MariaDB-protocol target (the JDBC ones when a JDK and Maven are here)
// against a throwaway TiDB: the tool shown on a distributed SQL engine's
// SQL layer and protocol. Opt-in with SQLBENCH_TIDB=1: the first start
// builds tidb-server from its Go module (minutes, ~250 MB; see
// docs/tidb.md), too long for CI's budget.
func TestRunOnTiDB(t *testing.T) {
	if os.Getenv("SQLBENCH_TIDB") != "1" {
		t.Skip("needs SQLBENCH_TIDB=1: builds and starts a TiDB server (minutes on first use)")
	}
	env, stdout, stderr, cache, tmp := realEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	srv, err := servers.Start(ctx, servers.Options{Kind: servers.KindTiDB, Parent: tmp, Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	if !strings.Contains(srv.Version, "TiDB") {
		t.Fatalf("server version %q is not TiDB's", srv.Version)
	}
	names := []string{"mysql", "mysql-interp", "go-mysql", "mymysql", "mymysql-native"}
	if _, err := exec.LookPath("java"); err == nil {
		if _, err := exec.LookPath("mvn"); err == nil {
			names = append(names, "jdbc-mariadb", "jdbc-mysql")
		}
	}
	ws, err := session.SelectWorkloads([]string{"classic", "SingleInsert"})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "tidb.txt")
	code := Main(context.Background(), []string{"run", "--db", "mariadb", "--dsn", "mariadb=" + srv.DSN("tcp"),
		"--targets", strings.Join(names, ","), "--workloads", "classic,SingleInsert",
		"--quick", "--count", "2", "-o", out, "--cache", cache}, env)
	t.Logf("stdout:\n%s", stdout)
	if code != ExitOK {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr)
	}
	runs, cfg := readRuns(t, out)
	for _, n := range names {
		spec, _ := targets.Lookup(n)
		for _, w := range ws {
			if !spec.Runs(w) {
				continue
			}
			name, keys, _ := strings.Cut(w.ID(), "/")
			id := name + "/" + spec.Key() + "/net=tcp"
			if keys != "" {
				id += "/" + keys
			}
			if runs[id] != 2 {
				t.Errorf("%s: %d runs, want 2", id, runs[id])
			}
		}
	}
	if v := cfg.GetConfig("mariadb-version"); !strings.Contains(v, "TiDB") {
		t.Errorf("mariadb-version = %q, want TiDB's", v)
	}
}
