package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/procs"
)

// The fault suite: real sessions of the real binary, hit by signals at
// random points, by a runner killed under them, by a disk that fills, and
// by a second session started beside them; afterwards nothing measured is
// lost, nothing is left behind, nothing is printed that should not be.

// buildSqlbench builds cmd/sqlbench into dir and returns its path.
func buildSqlbench(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "sqlbench")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/sqlbench")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build sqlbench: %v\n%s", err, out)
	}
	return bin
}

// faultRun is a session of the binary in its own directory and TMPDIR.
type faultRun struct {
	bin, dir, tmp, cache string
}

func newFaultRun(t *testing.T, bin string) *faultRun {
	_, _, _, cache, tmp := realEnv(t)
	return &faultRun{bin: bin, dir: t.TempDir(), tmp: tmp, cache: cache}
}

func (f *faultRun) command(args ...string) *exec.Cmd {
	root, _ := filepath.Abs("../..")
	cmd := exec.Command(f.bin, append(args, "--cache", f.cache)...)
	cmd.Dir = f.dir
	cmd.Env = append(os.Environ(), "TMPDIR="+f.tmp, "SQLBENCH_SRC="+root)
	return cmd
}

// together runs the sessions args gives, all at once, and returns their
// output; it fails t when one does not exit 0.
func (f *faultRun) together(t *testing.T, args ...[]string) []*bytes.Buffer {
	t.Helper()
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for _, a := range args {
		cmd := f.command(a...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("session %d: %v\n%s", i, err, outs[i])
		}
	}
	return outs
}

// cellCounts reads a results file into runs per cell.
func cellCounts(t *testing.T, path string) map[string]int {
	t.Helper()
	set, err := benchfile.ReadFile(path)
	if err != nil {
		t.Fatalf("results %s: %v", path, err)
	}
	out := map[string]int{}
	for _, r := range set.Results {
		out[r.Name.String()]++
	}
	return out
}

// liveRunners lists the runner processes still running (not zombies) that
// a session with TMPDIR tmp started: runners inherit the session's
// environment, which tells them from other tests' runners of the same
// cache.
func liveRunners(tmp string) []string {
	var live []string
	procDirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procDirs {
		cmdline, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		environ, _ := os.ReadFile(filepath.Join(p, "environ"))
		if !bytes.Contains(cmdline, []byte("sqlbench-runner")) ||
			!bytes.Contains(environ, []byte("TMPDIR="+tmp+"\x00")) {
			continue
		}
		if pid, _ := strconv.Atoi(filepath.Base(p)); procsStateZombie(pid) {
			continue
		}
		live = append(live, p+" "+string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
	}
	return live
}

// TestSignalsAndResumeLoseNothing interrupts the same session with
// SIGINT, SIGTERM, SIGHUP and SIGKILL, each after a random number of its
// slices, then
// resumes it from its journal: every time, the resumed results are the
// uninterrupted session's cells with every run, and no runner process or
// temp file is left.
func TestSignalsAndResumeLoseNothing(t *testing.T) {
	bin := buildSqlbench(t, t.TempDir())
	args := []string{"run", "--targets", "mattn,modernc", "--workloads", "SimpleQueryRow,PreparedExec,SimpleExec",
		"--count", "3", "--slices", "5", "--scale", "0.3", "-o", "r.txt"}
	base := newFaultRun(t, bin)
	if out, err := base.command(args...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted session: %v\n%s", err, out)
	}
	want := cellCounts(t, filepath.Join(base.dir, "r.txt"))
	if len(want) != 6 {
		t.Fatalf("uninterrupted session: %d cells, want 6", len(want))
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			f := newFaultRun(t, bin)
			cmd := f.command(args...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// At a random point of the session: after k of its 90 slices.
			at := 1 + rand.IntN(85)
			for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(
				5 * time.Millisecond) {
				if b, _ := os.ReadFile(filepath.Join(f.dir, "r.journal")); bytes.Count(b, []byte("\n")) > at {
					break
				}
			}
			cmd.Process.Signal(sig)
			cmd.Wait()
			journal := filepath.Join(f.dir, "r.journal")
			if _, err := os.Stat(journal); err != nil {
				t.Fatalf("signalled after %d slices: no journal left (%v)\n%s", at, err, out.String())
			}
			if sig != syscall.SIGKILL {
				if !strings.Contains(out.String(), "--resume "+journal) {
					t.Errorf("the interrupted session does not say how to resume:\n%s", out.String())
				}
				assertEmpty(t, f.tmp) // SIGKILL's are swept by the next session
			}
			deadline := time.Now().Add(5 * time.Second)
			for len(liveRunners(f.tmp)) > 0 && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond) // runners see their input close and exit
			}
			if live := liveRunners(f.tmp); len(live) > 0 {
				t.Errorf("runners left running after %s: %v", sig, live)
			}
			resume := f.command("run", "--resume", "r.journal")
			if b, err := resume.CombinedOutput(); err != nil {
				t.Fatalf("resume: %v\n%s", err, b)
			}
			got := cellCounts(t, filepath.Join(f.dir, "r.txt"))
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("resumed after %s after %d slices: %v, want %v", sig, at, got, want)
			}
			if _, err := os.Stat(journal); !os.IsNotExist(err) {
				t.Errorf("the finished session's journal is still there (%v)", err)
			}
			assertEmpty(t, f.tmp)
		})
	}
}

// TestRunnerKilledCostsOnlyTheCellInFlight kills the mattn runner in the
// middle of a session whose three mattn cells have half-done runs: one
// cell fails, the other cells of that runner and the modernc ones finish
// every run.
func TestRunnerKilledCostsOnlyTheCellInFlight(t *testing.T) {
	f := newFaultRun(t, buildSqlbench(t, t.TempDir()))
	cmd := f.command("run", "--targets", "mattn,modernc", "--workloads", "SimpleQueryRow,PreparedExec,SimpleExec",
		"--count", "3", "--slices", "5", "--scale", "0.5", "-o", "r.txt")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline) &&
		!killed; time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(filepath.Join(f.dir, "r.journal")); bytes.Count(b, []byte("\n")) > 12 {
			// This session's mattn runner only: other tests' runners share the cache.
			killed = exec.Command("pkill", "-9", "-P", strconv.Itoa(cmd.Process.Pid), "-f",
				"sqlbench-runner-mattn").Run() == nil
		}
	}
	err := cmd.Wait()
	if !killed {
		t.Fatalf("the mattn runner was never found to kill\n%s", out.String())
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitPartial {
		t.Fatalf("exit %v, want 1 (one cell failed)\n%s", err, out.String())
	}
	got := cellCounts(t, filepath.Join(f.dir, "r.txt"))
	full := 0
	for name, n := range got {
		if n == 3 {
			full++
		} else if !strings.Contains(name, "driver=mattn") {
			t.Errorf("%s: %d runs, want 3", name, n)
		}
	}
	if full < 5 {
		t.Errorf("%d cells finished every run, want every cell but the one in flight: %v\n%s", full, got, out.String())
	}
	if strings.Count(out.String(), "FAIL") > 2 {
		t.Errorf("more than the cell in flight failed:\n%s", out.String())
	}
}

// procsStateZombie reports whether pid is a zombie.
func procsStateZombie(pid int) bool {
	st, err := procs.Stat(pid)
	return err == nil && st.State == "Z"
}
