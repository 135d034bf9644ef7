package drift

import (
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestProbeTimesTheWorkOnTheGivenCPU(t *testing.T) {
	last := runtime.NumCPU() - 1
	p := &Probe{CPUs: []int{last}, Work: 100_000}
	small, err := p.Time()
	if err != nil || small <= 0 {
		t.Fatalf("Time() = %v, %v; want a positive duration", small, err)
	}
	p.Work = 100 * 100_000
	big, err := p.Time()
	if err != nil {
		t.Fatal(err)
	}
	// A hundred times the work: even on a noisy machine more than twice the time.
	if big < 2*small {
		t.Errorf("100x the work took %v, 1x %v", big, small)
	}
}

func TestProbeOnAMissingCPUFails(t *testing.T) {
	p := &Probe{CPUs: []int{1000}, Work: 10}
	if _, err := p.Time(); err == nil || !strings.Contains(err.Error(), "[1000]") {
		t.Fatalf("Time() on CPU 1000: err = %v, want one naming the CPU", err)
	}
	// The failed pin stays with its own thread: the next probe runs.
	p.CPUs = nil
	if _, err := p.Time(); err != nil {
		t.Fatalf("unpinned probe after a failed pin: %v", err)
	}
}

// TestFloorFromHandComputedTimes: count 2, passes alternating 10 and 20 ms:
// run 1 (passes 0, 2) averages 10 ms, run 2 (passes 1, 3) 20 ms.
func TestFloorFromHandComputedTimes(t *testing.T) {
	r := &Recorder{Count: 2, times: map[int]time.Duration{0: 10e6, 1: 20e6, 2: 10e6, 3: 20e6}}
	f, err := r.Floor()
	if err != nil {
		t.Fatal(err)
	}
	// Sample standard deviations over the mean of 15 ms.
	wantPass := math.Sqrt(4*25.0/3) / 15 // deviations of +-5 ms, n-1 = 3
	wantRun := math.Sqrt(2*25.0/1) / 15  // 10 and 20 ms, n-1 = 1
	if f.Passes != 4 || math.Abs(f.PassCV-wantPass) > 1e-9 || math.Abs(f.RunCV-wantRun) > 1e-9 {
		t.Fatalf("Floor() = %+v, want 4 passes, pass CV %.4f, run CV %.4f", f, wantPass, wantRun)
	}
}

func TestRecorderTimesEveryPass(t *testing.T) {
	r := &Recorder{Probe: Probe{Work: 1000}, Count: 3}
	for p := range 6 {
		r.Pass(p)
	}
	f, err := r.Floor()
	if err != nil || f.Passes != 6 {
		t.Fatalf("Floor() = %+v, %v; want 6 passes", f, err)
	}
}

func TestFloorNeedsTwoRuns(t *testing.T) {
	for _, r := range []*Recorder{
		{Count: 1, times: map[int]time.Duration{0: 1, 1: 2}},
		{Count: 3, times: map[int]time.Duration{0: 1, 3: 2}}, // both passes of run 1
		{Count: 3},
	} {
		if f, err := r.Floor(); err == nil {
			t.Errorf("Floor() of count %d, times %v = %+v, want an error", r.Count, r.times, f)
		}
	}
	bad := &Recorder{Probe: Probe{CPUs: []int{1000}}, Count: 2}
	bad.Pass(0)
	bad.Pass(1)
	if _, err := bad.Floor(); err == nil || !strings.Contains(err.Error(), "pin") {
		t.Fatalf("Floor() after a failed probe: %v, want the probe's error", err)
	}
}

// TestParseFactScalesToTheDefaultWork: a smoke session's shorter probe
// reads as the time of DefaultWork steps, so two sessions' drift compare
// whatever work each timed; a fact without its steps reads as it is.
func TestParseFactScalesToTheDefaultWork(t *testing.T) {
	for _, c := range []struct {
		fact string
		ms   float64
		ok   bool
	}{
		{"206.27 ms (150000000 steps, median of 55 passes)", 206.27, true},
		{"20.50 ms (15000000 steps, median of 35 passes)", 205, true},
		{"52.31 ms", 52.31, true},
		{"", 0, false},
		{"n/a", 0, false},
	} {
		ms, ok := ParseFact(c.fact)
		if ok != c.ok || math.Abs(ms-c.ms) > 1e-9 {
			t.Errorf("ParseFact(%q) = %v, %v; want %v, %v", c.fact, ms, ok, c.ms, c.ok)
		}
	}
	r := &Recorder{Probe: Probe{Work: DefaultWork / 10}, Count: 2, times: map[int]time.Duration{0: 20e6, 1: 22e6}}
	_, v, _ := r.Fact()
	if ms, ok := ParseFact(v); !ok || math.Abs(ms-210) > 1e-6 {
		t.Errorf("ParseFact(%q) = %v, %v; want 210 ms for the default work", v, ms, ok)
	}
}
