package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// cpuProfile profiles a busy loop of d.
func cpuProfile(t *testing.T, d time.Duration) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		t.Fatal(err)
	}
	x := 0
	for end := time.Now().Add(d); time.Now().Before(end); x++ {
	}
	pprof.StopCPUProfile()
	return buf.Bytes()
}

func total(p *profile.Profile) (n int64) {
	for _, s := range p.Sample {
		n += s.Value[0]
	}
	return n
}

// TestMergeProfileAccumulatesRuns: a cell's runs go into one file that
// pprof reads, holding the samples of every run.
func TestMergeProfileAccumulatesRuns(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pgx-SimpleExec-tcp.pprof")
	var want int64
	for i := 0; i < 2; i++ {
		run := cpuProfile(t, 300*time.Millisecond)
		p, err := profile.Parse(bytes.NewReader(run))
		if err != nil {
			t.Fatal(err)
		}
		want += total(p)
		if err := mergeProfile(file, run); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := profile.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got := total(merged); got != want || want == 0 {
		t.Fatalf("merged profile holds %d samples, the runs %d", got, want)
	}
	if err := mergeProfile(file, []byte("not a profile")); err == nil {
		t.Error("a broken profile was merged")
	}
}
