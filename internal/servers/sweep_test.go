package servers

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sweepHelperEnv makes the test binary act as a sqlbench process that
// starts an attached server and then waits to be killed.
const sweepHelperEnv = "SQLBENCH_SERVERS_SWEEP_HELPER"

// sweepHelper reads "kind:parent", starts a server of that kind in parent,
// prints its directory and blocks.
func sweepHelper(spec string) {
	kind, parent, _ := strings.Cut(spec, ":")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := Start(ctx, Options{Kind: Kind(kind), Parent: parent, CacheBytes: testCache})
	if err != nil {
		fmt.Println("helper error:", err)
		return
	}
	fmt.Println("helper dir", s.Dir)
	select {}
}

// shmKeys returns the keys of the System V shared memory segments.
func shmKeys(t *testing.T) []int {
	t.Helper()
	b, err := os.ReadFile("/proc/sysvipc/shm")
	if err != nil {
		t.Fatal(err)
	}
	var keys []int
	for _, line := range strings.Split(string(b), "\n")[1:] {
		if f := strings.Fields(line); len(f) > 0 {
			if k, err := strconv.Atoi(f[0]); err == nil {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// TestSweepAfterKilledOwner starts a server from a child process, SIGKILLs
// the child, and checks that Sweep removes the server's directory and
// shared memory and leaves no server process, while the server of a live
// owner (this test process) in the same place is not touched.
func TestSweepAfterKilledOwner(t *testing.T) {
	for _, kind := range Kinds() {
		t.Run(string(kind), func(t *testing.T) {
			requireBinaries(t, kind)
			parent := reachableDir(t)
			live := startServer(t, Options{Kind: kind, Parent: parent})

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
			key, _ := sysvSegment(&Server{Dir: dir})
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if kind == KindPostgres && !slices.Contains(shmKeys(t), key) {
				t.Fatalf("no shared memory segment with the key %d of postmaster.pid before the sweep", key)
			}
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("the killed owner's server directory is gone before the sweep: %v", err)
			}

			t.Setenv("TMPDIR", parent)
			var log bytes.Buffer
			removed, err := Sweep(&log)
			t.Logf("Sweep: %q, %v; log %q", removed, err, log.String())
			if err != nil {
				t.Errorf("Sweep: %v", err)
			}
			if !slices.Equal(removed, []string{dir}) {
				t.Errorf("Sweep removed %q, want only %q", removed, dir)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the killed owner's server directory is still there: %v", err)
			}
			if pids := serverPIDs(dir); len(pids) > 0 {
				t.Errorf("server processes %v still run on the swept directory", pids)
			}
			if kind == KindPostgres && slices.Contains(shmKeys(t), key) {
				t.Errorf("the shared memory segment %d is still there after the sweep", key)
			}
			if !strings.Contains(log.String(), "left by sqlbench pid "+strconv.Itoa(cmd.Process.Pid)) {
				t.Errorf("Sweep log %q does not name the gone owner %d", log.String(), cmd.Process.Pid)
			}
			if !live.Alive() {
				t.Errorf("Sweep stopped the server of a live owner")
			}
			if _, err := os.Stat(filepath.Join(live.Dir, "data")); err != nil {
				t.Errorf("Sweep touched the directory of a live owner's server: %v", err)
			}
			if err := query(context.Background(), kind, live.DSN("unix")); err != nil {
				t.Errorf("the live owner's server after the sweep: %v", err)
			}
		})
	}
}

// TestSweepStopsAServerWhoseOwnerIsGone covers a server still running when
// its owner is gone (here a server of this process whose marker is made to
// name a process that has exited): Sweep stops it, then removes it.
func TestSweepStopsAServerWhoseOwnerIsGone(t *testing.T) {
	kind := KindMariaDB
	requireBinaries(t, kind)
	parent := reachableDir(t)
	s := startServer(t, Options{Kind: kind, Parent: parent})
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	o, err := readOwner(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	o.PID = gone.Process.Pid
	data := fmt.Sprintf(`{"pid":%d,"start":%d,"boot":%q,"kind":%q}`, o.PID, o.Start, o.Boot, o.Kind)
	if err := os.WriteFile(filepath.Join(s.Dir, ownerFile), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	removed, err := sweep(parent, nil)
	if err != nil || !slices.Equal(removed, []string{s.Dir}) {
		t.Errorf("sweep = %q, %v; want %q", removed, err, s.Dir)
	}
	if s.Alive() {
		t.Errorf("the server of a gone owner still runs after the sweep")
	}
	if _, err := os.Stat(s.Dir); !os.IsNotExist(err) {
		t.Errorf("the server directory of a gone owner is still there: %v", err)
	}
}

func TestSweepLeavesUnmarkedDirectories(t *testing.T) {
	parent := t.TempDir()
	plain := filepath.Join(parent, "sqb-123")
	if err := os.Mkdir(plain, 0o700); err != nil {
		t.Fatal(err)
	}
	removed, err := sweep(parent, nil)
	if err != nil || len(removed) != 0 {
		t.Errorf("sweep = %q, %v; want nothing removed", removed, err)
	}
	if _, err := os.Stat(plain); err != nil {
		t.Errorf("sweep removed a directory without a marker: %v", err)
	}
}
