package servers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// detachHelperEnv makes the test binary act as a short-lived parent that
// starts a detached server, saves its state and exits.
const detachHelperEnv = "SQLBENCH_SERVERS_DETACH_HELPER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(detachHelperEnv); spec != "" {
		detachHelper(spec)
		return
	}
	if spec := os.Getenv(sweepHelperEnv); spec != "" {
		sweepHelper(spec)
		return
	}
	m.Run()
}

// detachHelper reads "kind:statedir", starts a detached server, saves its
// state and reports on stdout; the parent test checks what it printed.
func detachHelper(spec string) {
	kind, dir, _ := strings.Cut(spec, ":")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := Start(ctx, Options{Kind: Kind(kind), Detach: true})
	if err != nil {
		fmt.Println("helper error:", err)
		return
	}
	if err := SaveState(dir, s); err != nil {
		fmt.Println("helper error:", err)
		_ = s.Stop()
		return
	}
	fmt.Println("helper saved pid", s.PID)
}

// TestDetached starts a detached server from a child process that then
// exits, and stops it from a Server loaded from the state file.
func TestDetached(t *testing.T) {
	for _, kind := range Kinds() {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			requireBinaries(t, kind)
			stateDir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), detachHelperEnv+"="+string(kind)+":"+stateDir)
			out, err := cmd.CombinedOutput()
			if err != nil || !bytes.Contains(out, []byte("helper saved pid")) {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			loaded, err := LoadStates(stateDir)
			if err != nil || len(loaded) != 1 {
				t.Fatalf("LoadStates = %v, %v; want one server", loaded, err)
			}
			s := loaded[0]
			t.Cleanup(func() { _ = s.Stop() })
			if !s.Alive() || !s.Detached {
				t.Fatalf("detached server: Alive() = %v, Detached = %v after its parent exited", s.Alive(), s.Detached)
			}
			if sid := sessionOf(s.PID); sid != s.PID {
				t.Errorf("detached server pid %d is in session %d, want its own", s.PID, sid)
			}
			if err := query(context.Background(), kind, s.DSN("tcp")); err != nil {
				t.Errorf("detached server over tcp: %v", err)
			}
			stopAndCheck(t, s)
			if err := RemoveState(stateDir, s); err != nil {
				t.Fatal(err)
			}
			if rest, err := LoadStates(stateDir); err != nil || len(rest) != 0 {
				t.Errorf("after RemoveState: %v, %v", rest, err)
			}
		})
	}
}

// sessionOf reads a process's session id from /proc/<pid>/stat.
func sessionOf(pid int) int {
	st, err := procs.Stat(pid)
	if err != nil {
		return -1
	}
	return st.Session
}

// cancelOn is a progress log that cancels Start a little after a line
// contains word.
type cancelOn struct {
	t      *testing.T
	word   string
	delay  time.Duration
	cancel context.CancelFunc
}

func (c cancelOn) Write(p []byte) (int, error) {
	c.t.Log(strings.TrimSpace(string(p)))
	if strings.Contains(string(p), c.word) {
		time.AfterFunc(c.delay, c.cancel)
	}
	return len(p), nil
}

// TestStartCancelled cancels Start while it initializes and while it waits
// for the server, and checks nothing is left behind.
func TestStartCancelled(t *testing.T) {
	for _, kind := range Kinds() {
		for stage, delay := range map[string]time.Duration{"initializing": 300 * time.Millisecond,
			"starting": 30 * time.Millisecond} {
			t.Run(string(kind)+"/"+stage, func(t *testing.T) {
				t.Parallel()
				requireBinaries(t, kind)
				parent := reachableDir(t)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				_, err := Start(ctx, Options{Kind: kind, Parent: parent, NoTemplates: true,
					Log: cancelOn{t: t, word: stage, delay: delay, cancel: cancel}})
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("Start = %v, want a context.Canceled error", err)
				}
				t.Logf("cancelled Start: %v", err)
				if entries, _ := os.ReadDir(parent); len(entries) != 0 {
					t.Errorf("left behind in %s: %v", parent, entries)
				}
				if pids := processesUnder(parent); len(pids) != 0 {
					t.Errorf("processes left running: %v", pids)
				}
			})
		}
	}
}

// reachableDir makes a temporary directory any user can enter, so that the
// mysql and postgres users can reach it when the test runs as root.
func reachableDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sqbp-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestParentChecks(t *testing.T) {
	long := reachableDir(t)
	for len(long) < 100 {
		long += "/abcdefghijklmnopqrstuvwxyz"
	}
	if err := os.MkdirAll(long, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Start(context.Background(), Options{Kind: KindPostgres, Parent: long})
	if err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("Start under a long parent = %v, want a too-long error", err)
	}
	if os.Geteuid() != 0 {
		t.Log("not root: the traversal check does not apply")
		return
	}
	closed := t.TempDir() // 0700, owned by root
	inner := closed + "/in"
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Start(context.Background(), Options{Kind: KindMariaDB, Parent: inner})
	if err == nil || !strings.Contains(err.Error(), "cannot enter") {
		t.Errorf("Start under a closed parent = %v, want a cannot-enter error", err)
	}
	if entries, _ := os.ReadDir(inner); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestStopForced freezes the server (SIGSTOP) so that it cannot shut down
// cleanly: Stop must kill it, its children and (PostgreSQL) its System V
// shared memory segment, within the 2 s budget.
func TestStopForced(t *testing.T) {
	for _, kind := range Kinds() {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			requireBinaries(t, kind)
			s := startServer(t, Options{Kind: kind})
			_, shmid := sysvSegment(s)
			if kind == KindPostgres && !shmExists(shmid) {
				t.Errorf("postgres: no System V segment %d before Stop", shmid)
			}
			if err := syscall.Kill(s.PID, syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			if d := stopAndCheck(t, s); d < stopGrace || d > 2500*time.Millisecond {
				t.Errorf("forced Stop took %v, want between the %v grace and about 2 s", d, stopGrace)
			}
			if shmid >= 0 && shmExists(shmid) {
				t.Errorf("System V segment %d left behind", shmid)
			}
		})
	}
}

// shmExists reports whether a System V shared memory segment id exists.
func shmExists(id int) bool {
	b, err := os.ReadFile("/proc/sysvipc/shm")
	if err != nil || id < 0 {
		return false
	}
	for _, line := range strings.Split(string(b), "\n")[1:] {
		if f := strings.Fields(line); len(f) > 1 && f[1] == strconv.Itoa(id) {
			return true
		}
	}
	return false
}
