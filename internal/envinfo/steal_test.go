package envinfo

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// fakeProc returns a proc file system holding only a stat file.
func fakeProc(t *testing.T, stat string) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestReadCPUTimes(t *testing.T) {
	// In clock ticks (USER_HZ, 100 a second): 1000 in all, 35 stolen.
	stat := "cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 50 0 25 400 5 0 2 18 0 0\nintr 1 2 3\n"
	got, err := readCPUTimes(fakeProc(t, stat))
	if err != nil || math.Abs(got.Total-10) > 1e-9 || math.Abs(got.Steal-0.35) > 1e-9 {
		t.Fatalf("readCPUTimes = %+v, %v; want total 10 s, steal 0.35 s", got, err)
	}
	later := CPUTimes{Total: 20, Steal: 4.35}
	if f := later.StealSince(got); math.Abs(f-0.4) > 1e-9 {
		t.Errorf("StealSince = %v, want 0.4", f)
	}
	if _, err := readCPUTimes(fakeProc(t, "intr 1\n")); err == nil {
		t.Error("a stat without a cpu line parsed")
	}
	if _, err := ReadCPUTimes(); err != nil {
		t.Errorf("ReadCPUTimes on this machine: %v", err)
	}
}
