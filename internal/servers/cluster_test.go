package servers

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// clusterKinds are the cluster kinds with the size of each.
var clusterKinds = map[Kind]int{KindGalera: galeraNodes, KindPostgresSync: 2}

// TestClusterLifecycle starts each cluster kind, checks its nodes, its
// recorded settings and that a row the bench user writes on the first
// node is read on another over TCP, then stops it and checks that no node
// process, directory or shared memory segment is left.
func TestClusterLifecycle(t *testing.T) {
	for kind, size := range clusterKinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			requireBinaries(t, kind)
			t0 := time.Now()
			s := startServer(t, Options{Kind: kind})
			t.Logf("%s ready in %v: %s", kind, time.Since(t0).Round(time.Millisecond), s.Topology)
			if len(s.Nodes) != size {
				t.Fatalf("%d nodes, want %d", len(s.Nodes), size)
			}
			var pids, ports []int
			for _, n := range s.Nodes {
				if !n.Alive() || n.Kind != kind.Base() || !strings.HasPrefix(n.Dir, s.Dir+"/") {
					t.Errorf("node %s: Alive %v, kind %s, dir %s", n.Node, n.Alive(), n.Kind, n.Dir)
				}
				pids, ports = append(pids, n.PID), append(ports, n.Port)
			}
			slices.Sort(pids)
			slices.Sort(ports)
			if len(slices.Compact(pids)) != size || len(slices.Compact(ports)) != size {
				t.Errorf("nodes share pids %v or ports %v", pids, ports)
			}
			if s.PID != s.Nodes[0].PID || s.Port != s.Nodes[0].Port || !s.Alive() {
				t.Errorf("the cluster's pid %d, port %d are not its first node's (%d, %d), or not Alive",
					s.PID, s.Port, s.Nodes[0].PID, s.Nodes[0].Port)
			}
			switch kind {
			case KindGalera:
				wantVars(t, s, map[string]string{"wsrep_cluster_size": "3", "wsrep_on": "ON",
					"wsrep_sst_method": "rsync", "binlog_format": "ROW", "innodb_flush_log_at_trx_commit": "1"})
			case KindPostgresSync:
				wantVars(t, s, map[string]string{"standby_sync_state": "sync", "synchronous_commit": "on",
					"synchronous_standby_names": standbyName, "fsync": "on"})
			}
			lines := s.ConfigLines()
			if !slices.ContainsFunc(lines, func(l [2]string) bool { return l[0] == string(kind)+"-topology" }) {
				t.Errorf("ConfigLines has no %s-topology line: %q", kind, lines)
			}
			replicates(t, s)

			var keys []int
			for _, n := range s.Nodes {
				if key, _ := sysvSegment(n); key >= 0 {
					keys = append(keys, key)
				}
			}
			if kind == KindPostgresSync && len(keys) != 2 {
				t.Errorf("shared memory keys of the nodes: %v, want 2", keys)
			}
			d := stopAndCheck(t, s)
			t.Logf("stopped in %v", d.Round(time.Millisecond))
			for _, n := range s.Nodes {
				if !waitUntil(func() bool { return !processRunning(n.PID) }, time.Second) {
					t.Errorf("node %s (pid %d) still runs after Stop", n.Node, n.PID)
				}
			}
			if left := processesUnder(s.Dir); len(left) > 0 {
				t.Errorf("processes %v still name %s", left, s.Dir)
			}
			for _, k := range keys {
				if slices.Contains(shmKeys(t), k) {
					t.Errorf("shared memory segment %d left after Stop", k)
				}
			}
		})
	}
}

// replicates writes a row as the bench user over TCP on the cluster's
// entry point and reads it on its last node, within 10 s.
func replicates(t *testing.T, s *Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	last := s.Nodes[len(s.Nodes)-1]
	switch s.Kind {
	case KindGalera:
		w, err := sql.Open("mysql", s.DSN("tcp"))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		for _, q := range []string{"CREATE TABLE repl (id INT PRIMARY KEY, v VARCHAR(20))",
			"INSERT INTO repl VALUES (1, 'written on node1')"} {
			if _, err := w.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s on node1: %v", q, err)
			}
		}
		r, err := sql.Open("mysql", last.DSN("tcp"))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		conn, err := r.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var v string
		if _, err := conn.ExecContext(ctx, "SET SESSION wsrep_sync_wait = 1"); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRowContext(ctx, "SELECT v FROM repl WHERE id = 1").Scan(&v); err != nil ||
			v != "written on node1" {
			t.Errorf("node %s read %q, %v", last.Node, v, err)
		}
	case KindPostgresSync:
		w, err := pgx.Connect(ctx, s.DSN("tcp"))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close(context.Background())
		for _, q := range []string{"CREATE TABLE repl (id int PRIMARY KEY, v text)",
			"INSERT INTO repl VALUES (1, 'written on the primary')"} {
			if _, err := w.Exec(ctx, q); err != nil {
				t.Fatalf("%s on the primary: %v", q, err)
			}
		}
		r, err := pgx.Connect(ctx, last.DSN("tcp"))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(context.Background())
		var v string
		err = pollUntil(ctx, 10*time.Second, "the row on the standby", func(ctx context.Context) error {
			return r.QueryRow(ctx, "SELECT v FROM repl WHERE id = 1").Scan(&v)
		})
		if err != nil || v != "written on the primary" {
			t.Errorf("standby read %q, %v", v, err)
		}
		if _, err := r.Exec(ctx, "INSERT INTO repl VALUES (2, 'x')"); err == nil {
			t.Error("the standby took a write")
		}
	}
}

// TestClusterSweepAfterKilledOwner starts each cluster kind from a child
// process, SIGKILLs the child, and checks that Sweep leaves no node
// process, directory or shared memory segment.
func TestClusterSweepAfterKilledOwner(t *testing.T) {
	for kind := range clusterKinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			requireBinaries(t, kind)
			parent := reachableDir(t)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), sweepHelperEnv+"="+string(kind)+":"+parent)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			dir, ok := strings.CutPrefix(strings.TrimSpace(line), "helper dir ")
			if !ok {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("helper: %q", line)
			}
			pidFiles, _ := filepath.Glob(filepath.Join(dir, "data", "*", "data", "postmaster.pid"))
			var keys []int
			for _, p := range pidFiles {
				if key, _ := sysvSegmentIn(filepath.Dir(filepath.Dir(p))); key >= 0 {
					keys = append(keys, key)
				}
			}
			if kind == KindPostgresSync && len(keys) != 2 {
				t.Fatalf("shared memory keys of the nodes before the kill: %v, want 2", keys)
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			var log bytes.Buffer
			removed, err := sweep(parent, &log)
			t.Logf("sweep: %q, %v; log %q", removed, err, log.String())
			if err != nil {
				t.Errorf("sweep: %v", err)
			}
			if !slices.Equal(removed, []string{dir}) {
				t.Errorf("sweep removed %q, want %q", removed, dir)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the cluster's directory is still there: %v", err)
			}
			if left := processesUnder(dir); len(left) > 0 {
				t.Errorf("processes %v still run on the swept cluster", left)
			}
			for _, k := range keys {
				if slices.Contains(shmKeys(t), k) {
					t.Errorf("shared memory segment %d left after the sweep", k)
				}
			}
		})
	}
}
