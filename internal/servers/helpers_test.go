package servers

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqlbench/sqlbench/internal/procs"
	"github.com/sqlbench/sqlbench/internal/testenv"
)

// Generous bounds: the goals are 3 s to ready and 2 s to stop, but machines
// vary, so the tests log the figures and fail only far above them.
const (
	readyBound = 15 * time.Second
	stopBound  = 5 * time.Second
)

// testCache keeps the seed profile's memory-scaled settings small in tests.
const testCache = 256 * mib

// requireBinaries skips the test when kind's server is not installed, or
// fails it under SQLBENCH_SERVERS=1 (testenv).
func requireBinaries(t *testing.T, kind Kind) {
	t.Helper()
	testenv.Need(t, "a "+string(kind)+" server", Installed(kind))
}

// testLog forwards progress lines to the test log while Start runs.
type testLog struct{ t *testing.T }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// startServer starts a server and registers its Stop as a clean-up.
func startServer(t *testing.T, opt Options) *Server {
	t.Helper()
	s, err := tryStart(t, opt)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return s
}

// tryStart is startServer for other goroutines than the test's own: it
// returns the error instead of failing the test.
func tryStart(t *testing.T, opt Options) (*Server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if opt.Log == nil {
		opt.Log = testLog{t}
	}
	if opt.CacheBytes == 0 {
		opt.CacheBytes = testCache
	}
	s, err := Start(ctx, opt)
	if err != nil {
		return nil, fmt.Errorf("Start(%s, %s): %w", opt.Kind, opt.Profile, err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("clean-up Stop: %v", err)
		}
	})
	return s, nil
}

// stopAndCheck stops s, logs how long it took, and checks that neither the
// process, nor its process group, nor its directory is left.
func stopAndCheck(t *testing.T, s *Server) time.Duration {
	t.Helper()
	kids := childrenOf(s.PID)
	t0 := time.Now()
	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	d := time.Since(t0)
	for _, k := range kids {
		if !waitUntil(func() bool { return !processRunning(k) }, time.Second) {
			t.Errorf("child %d of server pid %d still runs after Stop", k, s.PID)
		}
	}
	t.Logf("%s %s: stopped in %v", s.Kind, s.Profile, d.Round(time.Millisecond))
	if d > stopBound {
		t.Errorf("Stop took %v, want at most %v (goal 2 s)", d, stopBound)
	}
	checkGone(t, s)
	if err := s.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	return d
}

// checkGone checks that s's process and group are gone and Dir removed.
func checkGone(t *testing.T, s *Server) {
	t.Helper()
	if !waitUntil(func() bool { return !processRunning(s.PID) }, time.Second) {
		t.Errorf("pid %d still exists after Stop", s.PID)
	}
	if err := syscall.Kill(-s.PID, 0); !errors.Is(err, syscall.ESRCH) && !groupOnlyZombies(s.PID) {
		t.Errorf("process group %d still has members after Stop (kill -0: %v)", s.PID, err)
	}
	if s.Alive() {
		t.Errorf("Alive() after Stop")
	}
	if _, err := os.Stat(s.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("directory %s still exists after Stop (stat: %v)", s.Dir, err)
	}
}

// groupOnlyZombies reports whether every process in group pgid is a zombie.
func groupOnlyZombies(pgid int) bool {
	pids, _ := procs.PIDs()
	for _, pid := range pids {
		if st, err := procs.Stat(pid); err == nil && st.PGRP == pgid && st.State != "Z" {
			return false
		}
	}
	return true
}

// processesUnder lists pids whose command line mentions path.
func processesUnder(path string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(cmd, []byte(path)) && processRunning(atoi(e.Name())) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// query connects with dsn, runs a statement that needs the bench
// database's privileges and a query, and returns the first error.
func query(ctx context.Context, kind Kind, dsn string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var got int
	switch kind {
	case KindMariaDB:
		db, err := sql.Open("mysql", dsn)
		if err != nil {
			return err
		}
		defer db.Close()
		if _, err := db.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS probe (id INT PRIMARY KEY)"); err != nil {
			return err
		}
		if err := db.QueryRowContext(ctx, "SELECT 40 + 2 FROM DUAL").Scan(&got); err != nil {
			return err
		}
	case KindPostgres:
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "CREATE TABLE IF NOT EXISTS probe (id INT PRIMARY KEY)"); err != nil {
			return err
		}
		if err := conn.QueryRow(ctx, "SELECT 40 + 2").Scan(&got); err != nil {
			return err
		}
	}
	if got != 42 {
		return fmt.Errorf("SELECT 40 + 2 = %d", got)
	}
	return nil
}

// wantVars checks that s.Vars holds each wanted value.
func wantVars(t *testing.T, s *Server, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got, ok := s.Vars[k]; !ok || got != v {
			t.Errorf("%s %s: Vars[%q] = %q (present %v), want %q", s.Kind, s.Profile, k, got, ok, v)
		}
	}
}
