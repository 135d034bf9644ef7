package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/session"
)

// Faults that hit a session's files: a full disk, a second session writing
// beside it (see fault_e2e_test.go for the suite's helpers).

// TestFullDiskFailsCleanly runs a session whose results go to a 96 KB
// tmpfs: the disk fills; the session stops with one line and exit 3, and
// leaves no empty or cut-off report.
func TestFullDiskFailsCleanly(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	f := newFaultRun(t, buildSqlbench(t, t.TempDir()))
	disk := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(disk, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", disk).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", disk).Run() })
	cmd := f.command("run", "--targets", "mattn,modernc", "--count", "3", "--slices", "5", "--scale", "0.05", "-o",
		filepath.Join(disk, "r.txt"))
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitFailed {
		t.Fatalf("exit %v, want 3 (the disk failed)\n%s", err, out)
	}
	if !strings.Contains(string(out), "no space left on device") {
		t.Errorf("the output does not say the disk is full:\n%s", out)
	}
	for _, ext := range []string{".md", ".html"} {
		if b, err := os.ReadFile(filepath.Join(disk, "r"+ext)); err == nil && len(b) == 0 {
			t.Errorf("an empty r%s was left", ext)
		}
	}
	entries, _ := os.ReadDir(disk)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temp report was left: %s", e.Name())
		}
	}
}

// TestTwoSessionsSideBySide starts two sessions at once in one directory,
// with default results names: each gets a results file of its own and
// every run.
func TestTwoSessionsSideBySide(t *testing.T) {
	f := newFaultRun(t, buildSqlbench(t, t.TempDir()))
	args := []string{"run", "--targets", "mattn,modernc", "--workloads", "SimpleExec", "--quick"}
	f.together(t, args, args)
	files, _ := filepath.Glob(filepath.Join(f.dir, "results", "sqlbench-*.txt"))
	if len(files) != 2 {
		t.Fatalf("results files %v, want two", files)
	}
	for _, p := range files {
		if got := cellCounts(t, p); len(got) != 2 ||
			got["SimpleExec/db=sqlite/driver=mattn/api=sql"] != session.QuickCount {
			t.Errorf("%s: %v, want both cells with every run", p, got)
		}
	}
}
