package proccpu

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestTreeCountsADescendantsCPU: a child process that burns CPU shows up
// in its parent's tree, near the CPU it burned.
func TestTreeCountsADescendantsCPU(t *testing.T) {
	cmd := exec.Command("sh", "-c", "end=$(($(date +%s)+2)); while [ $(date +%s) -lt $end ]; do :; done & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tree := Tree{Root: cmd.Process.Pid}
	time.Sleep(200 * time.Millisecond)
	before, err := tree.CPU()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	after, err := tree.CPU()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// The grandchild loops on one CPU; on a shared machine it gets less.
	if d := after - before; d < 100*time.Millisecond || d > 600*time.Millisecond {
		t.Fatalf("tree used %v in 500ms of a busy child, want 100-600ms", d)
	}
	if _, err := (Tree{Root: cmd.Process.Pid}).CPU(); err == nil {
		t.Error("a finished process's CPU was read")
	}
}

func TestListenerFindsThisProcess(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if pid, err := Listener("tcp", l.Addr().String()); err != nil || pid != os.Getpid() {
		t.Fatalf("Listener(tcp) = %d, %v; want %d", pid, err, os.Getpid())
	}
	sock := filepath.Join(t.TempDir(), "s.sock")
	u, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	if pid, err := Listener("unix", sock); err != nil || pid != os.Getpid() {
		t.Fatalf("Listener(unix) = %d, %v; want %d", pid, err, os.Getpid())
	}
	if _, err := Listener("tcp", "127.0.0.1:1"); err == nil {
		t.Error("found a listener on port 1")
	}
}
