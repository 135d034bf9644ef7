package procs

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// burnEnv makes the test binary a helper that waits for a line on stdin,
// burns this much CPU on its thread, says "done" and waits for stdin to end.
const burnEnv = "PROCS_TEST_BURN"

func TestMain(m *testing.M) {
	if os.Getenv(burnEnv) != "" {
		runtime.LockOSThread()
		in := bufio.NewReader(os.Stdin)
		in.ReadString('\n')
		var ts syscall.Timespec
		read := func() time.Duration {
			// CLOCK_THREAD_CPUTIME_ID (3): this thread's own CPU time.
			syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
			return time.Duration(ts.Nano())
		}
		for end := read() + 300*time.Millisecond; read() < end; {
		}
		fmt.Println("done")
		io.Copy(io.Discard, in)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestTreeCountsADescendantsCPU: a grandchild that burns 300 ms of CPU
// (by its own thread clock, whatever the wall time on a busy machine)
// shows up in the tree of the shell that started it.
func TestTreeCountsADescendantsCPU(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `"$0"; true`, self)
	cmd.Env = append(os.Environ(), burnEnv+"=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	tree := Tree{Root: cmd.Process.Pid}
	time.Sleep(300 * time.Millisecond) // the helper starts
	before, err := tree.CPU()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(stdin, "go")
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "done\n" {
		t.Fatalf("helper: %q, %v", line, err)
	}
	after, err := tree.CPU()
	if err != nil {
		t.Fatal(err)
	}
	// The burn, plus what the helper's runtime and the shell did meanwhile.
	if d := after - before; d < 300*time.Millisecond || d > 400*time.Millisecond {
		t.Fatalf("tree used %v while a grandchild burned 300ms, want 300-400ms", d)
	}
	stdin.Close()
	cmd.Wait()
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

// BenchmarkTreeCPU times one read of a process tree's CPU (this test
// process: one process, a handful of threads), which a runner makes
// twice per run.
func BenchmarkTreeCPU(b *testing.B) {
	tree := Tree{Root: os.Getpid()}
	for b.Loop() {
		if _, err := tree.CPU(); err != nil {
			b.Fatal(err)
		}
	}
}
