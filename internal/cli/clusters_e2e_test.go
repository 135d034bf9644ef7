package cli

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/procs"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// defaultStateIn makes the default server state directory (where run
// looks for the server a DSN points at) a fresh one, keeping Go's build
// cache where it was (its default follows the user cache directory).
func defaultStateIn(t *testing.T) {
	t.Helper()
	if os.Getenv("GOCACHE") == "" {
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		if err != nil {
			t.Fatalf("go env GOCACHE: %v", err)
		}
		t.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
}

// processesNaming lists the live processes whose command line names dir.
func processesNaming(dir string) []int {
	all, _ := procs.PIDs()
	var out []int
	for _, pid := range all {
		args, err := procs.CmdLine(pid)
		if st, serr := procs.Stat(pid); err == nil && serr == nil && st.State != "Z" &&
			strings.Contains(strings.Join(args, " "), dir) {
			out = append(out, pid)
		}
	}
	return out
}

// TestServerStartClusters starts each cluster with server start, runs a
// Go driver on it by its DSN (the results record the cluster's topology
// and settings), stops it with server stop, and checks that nothing is
// left; then a postgres-sync pair whose nodes were killed with SIGKILL is
// cleaned up by server stop.
func TestServerStartClusters(t *testing.T) {
	needServers(t, servers.KindGalera, servers.KindPostgresSync)
	env, stdout, stderr, cache, _ := realEnv(t)
	defaultStateIn(t)
	state := servers.DefaultStateDir()
	for _, c := range []struct {
		kind, db, target string
		want             map[string]string
	}{
		{"galera", "mariadb", "mysql", map[string]string{"galera-wsrep-cluster-size": "3", "galera-wsrep-on": "ON"}},
		{"postgres-sync", "postgres", "pgx", map[string]string{"postgres-sync-standby-sync-state": "sync",
			"postgres-sync-synchronous-commit": "on", "postgres-sync-synchronous-standby-names": "sqlbench_standby"}},
	} {
		stdout.Reset()
		stderr.Reset()
		if code := Main(context.Background(), []string{"server", "start", c.kind}, env); code != ExitOK {
			t.Fatalf("server start %s: exit %d\n%s%s", c.kind, code, stdout, stderr)
		}
		all, err := servers.LoadStates(state)
		if err != nil || len(all) != 1 || !all[0].Alive() || len(all[0].Nodes) < 2 {
			t.Fatalf("state after server start %s: %v, %v", c.kind, all, err)
		}
		srv := all[0]
		t.Cleanup(func() { srv.Stop() })
		if !strings.Contains(stdout.String(), srv.Topology) ||
			!strings.Contains(stdout.String(), `--dsn `+c.db+`="$(sqlbench server dsn `+c.kind+`)"`) {
			t.Errorf("server start %s does not print the topology and how to use it:\n%s", c.kind, stdout)
		}
		stdout.Reset()
		Main(context.Background(), []string{"server", "status"}, env)
		for _, n := range srv.Nodes {
			if !strings.Contains(stdout.String(), n.Node) {
				t.Errorf("server status does not list node %s:\n%s", n.Node, stdout)
			}
		}
		stdout.Reset()
		if code := Main(context.Background(), []string{"server", "dsn", c.kind}, env); code != ExitOK {
			t.Fatalf("server dsn %s: exit %d\n%s", c.kind, code, stderr)
		}
		dsn := strings.TrimSpace(stdout.String())
		out := filepath.Join(t.TempDir(), "out.txt")
		stdout.Reset()
		code := Main(context.Background(),
			[]string{"run", "--db", c.db, "--dsn", c.db + "=" + dsn, "--targets", c.target,
				"--workloads", "SimpleExec,SingleInsert/data=fixed/conns=2/*", "--quick", "--count", "2", "-o", out,
				"--cache", cache}, env)
		if code != ExitOK {
			t.Fatalf("run on %s: exit %d\n%s%s", c.kind, code, stdout, stderr)
		}
		runs, cfg := readRuns(t, out)
		if len(runs) != 3 {
			t.Errorf("run on %s: cells %v, want 3", c.kind, runs)
		}
		if cfg.GetConfig(c.kind+"-topology") != srv.Topology || cfg.GetConfig(c.kind+"-version") == "" {
			t.Errorf("results on %s: topology %q, version %q", c.kind, cfg.GetConfig(c.kind+"-topology"),
				cfg.GetConfig(c.kind+"-version"))
		}
		for k, v := range c.want {
			if got := cfg.GetConfig(k); got != v {
				t.Errorf("results on %s: %s = %q, want %q", c.kind, k, got, v)
			}
		}
		if b, _ := os.ReadFile(out); bytes.Contains(b, []byte(srv.Password)) {
			t.Error("the password is in the results file")
		}
		stdout.Reset()
		if code := Main(context.Background(), []string{"server", "stop", c.kind}, env); code != ExitOK {
			t.Fatalf("server stop %s: exit %d\n%s%s", c.kind, code, stdout, stderr)
		}
		checkClusterGone(t, srv)
	}

	// Killed nodes: server stop still removes the directory, the shared
	// memory and the state.
	stdout.Reset()
	if code := Main(context.Background(), []string{"server", "start", "postgres-sync"}, env); code != ExitOK {
		t.Fatalf("server start postgres-sync: exit %d\n%s%s", code, stdout, stderr)
	}
	all, err := servers.LoadStates(state)
	if err != nil || len(all) != 1 {
		t.Fatalf("state after server start: %v, %v", all, err)
	}
	srv := all[0]
	t.Cleanup(func() { srv.Stop() })
	keys := shmKeysOf(t, srv)
	for _, n := range srv.Nodes {
		if err := syscall.Kill(n.PID, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	// A SIGKILL takes effect when the process next runs: on a busy
	// machine, some milliseconds later. Wait (5 s at most) until every
	// node is gone or a zombie, as status then finds it.
	for _, n := range srv.Nodes {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(
			10 * time.Millisecond) {
			if st, err := procs.Stat(n.PID); err != nil || st.State == "Z" {
				break
			}
		}
	}
	stdout.Reset()
	Main(context.Background(), []string{"server", "status"}, env)
	if !strings.Contains(stdout.String(), "gone") {
		t.Errorf("server status after the nodes were killed:\n%s", stdout)
	}
	if code := Main(context.Background(), []string{"server", "stop", "--all"}, env); code != ExitOK {
		t.Fatalf("server stop --all after kill -9: exit %d\n%s%s", code, stdout, stderr)
	}
	checkClusterGone(t, srv)
	for _, k := range keys {
		if shmHas(t, k) {
			t.Errorf("shared memory segment %s of a killed node left after server stop", k)
		}
	}
	if left, _ := servers.LoadStates(state); len(left) != 0 {
		t.Errorf("state left after stop: %v", left)
	}
}

// checkClusterGone checks that no process names the cluster's directory
// and that the directory is gone.
func checkClusterGone(t *testing.T, srv *servers.Server) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for len(processesNaming(srv.Dir)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := processesNaming(srv.Dir); len(left) > 0 {
		t.Errorf("%s: processes %v still run on %s", srv.Kind, left, srv.Dir)
	}
	if _, err := os.Stat(srv.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: directory %s left (%v)", srv.Kind, srv.Dir, err)
	}
}

// shmKeysOf returns the System V shared memory keys in the postmaster.pid
// files of a PostgreSQL cluster's nodes.
func shmKeysOf(t *testing.T, srv *servers.Server) []string {
	t.Helper()
	var keys []string
	for _, n := range srv.Nodes {
		b, err := os.ReadFile(filepath.Join(n.Dir, "data", "postmaster.pid"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		if len(lines) < 7 || len(strings.Fields(lines[6])) != 2 {
			t.Fatalf("postmaster.pid of node %s has no shared memory line", n.Node)
		}
		keys = append(keys, strings.Fields(lines[6])[0])
	}
	return keys
}

// shmHas reports whether a System V shared memory segment has key.
func shmHas(t *testing.T, key string) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/sysvipc/shm")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n")[1:] {
		if f := strings.Fields(line); len(f) > 0 && f[0] == key {
			return true
		}
	}
	return false
}

// TestGaleraNodeKilledDuringARun kills (SIGKILL) a Galera node the session
// is not connected to while single inserts run on node1: the survivors
// keep a majority, so the session finishes with every cell's rows and
// checksum verified (nothing lost), the cluster shrinks to two nodes that
// still replicate, and stopping it leaves nothing running.
func TestGaleraNodeKilledDuringARun(t *testing.T) {
	needServers(t, servers.KindGalera)
	env, stdout, stderr, cache, tmp := realEnv(t)
	srv, err := servers.Start(context.Background(), servers.Options{Kind: servers.KindGalera, Parent: tmp})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	victim := srv.Nodes[1]
	out := filepath.Join(t.TempDir(), "out.txt")
	killed := make(chan int, 1) // the runs written before the kill
	go func() {
		defer close(killed)
		deadline := time.Now().Add(3 * time.Minute)
		for time.Now().Before(deadline) {
			if b, _ := os.ReadFile(out); bytes.Count(b, []byte("\nBenchmark")) >= 3 {
				syscall.Kill(victim.PID, syscall.SIGKILL)
				killed <- bytes.Count(b, []byte("\nBenchmark"))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	code := Main(context.Background(), []string{"run", "--db", "mariadb", "--dsn", "mariadb=" + srv.DSN("tcp"),
		"--targets", "mysql", "--workloads", "SingleInsert/data=fixed/*/prepare=once", "--quick", "--count", "3",
		"-o", out, "--cache", cache}, env)
	before, ok := <-killed
	if !ok {
		t.Fatalf("the node was never killed: the run wrote too few results (exit %d)\n%s", code, stderr)
	}
	if code != ExitOK {
		t.Fatalf("exit %d after node %s was killed, want 0 (the survivors keep a majority)\nstdout:\n%s\nstderr:\n%s",
			code, victim.Node, stdout, stderr)
	}
	runs, _ := readRuns(t, out)
	total := 0
	for name, n := range runs {
		total += n
		if n != 3 {
			t.Errorf("%s: %d runs, want 3", name, n)
		}
	}
	if total <= before {
		t.Errorf("the node was killed after the last run (%d runs before, %d in all)", before, total)
	}
	t.Logf("node %s killed after %d of %d runs", victim.Node, before, total)
	if victim.Alive() {
		t.Fatalf("node %s still runs after SIGKILL", victim.Node)
	}

	// The survivors: a primary component of two that still replicates.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	n1, err := sql.Open("mysql", srv.DSN("tcp"))
	if err != nil {
		t.Fatal(err)
	}
	defer n1.Close()
	var name, size string
	if err := n1.QueryRowContext(ctx, "SHOW GLOBAL STATUS LIKE 'wsrep_cluster_size'").Scan(&name, &size); err != nil ||
		size != "2" {
		t.Errorf("wsrep_cluster_size after the kill: %q, %v; want 2", size, err)
	}
	for _, q := range []string{"CREATE TABLE after_kill (id INT PRIMARY KEY)", "INSERT INTO after_kill VALUES (7)"} {
		if _, err := n1.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s on node1: %v", q, err)
		}
	}
	n3, err := sql.Open("mysql", srv.Nodes[2].DSN("tcp"))
	if err != nil {
		t.Fatal(err)
	}
	defer n3.Close()
	conn, err := n3.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var id int
	if _, err := conn.ExecContext(ctx, "SET SESSION wsrep_sync_wait = 1"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT id FROM after_kill").Scan(&id); err != nil || id != 7 {
		t.Errorf("node3 after the kill read %d, %v; want 7", id, err)
	}
	conn.Close()

	if err := srv.Stop(); err != nil {
		t.Fatalf("Stop after a node was killed: %v", err)
	}
	checkClusterGone(t, srv)
	assertEmpty(t, tmp)
}
