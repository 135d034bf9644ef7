package wake

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestProbesGivePlausibleRoundTrips: every ping-pong answers every trip,
// each trip takes more than 100 ns (at least four system calls; a CPU
// polling in idle answers a wake-up in about a microsecond) and less than
// the probe's limit, and p90 is not below the median.
func TestProbesGivePlausibleRoundTrips(t *testing.T) {
	last := runtime.NumCPU() - 1
	for _, p := range []*Probe{{Trips: 50}, {Trips: 50, CPUs: []int{last}, PartnerCPUs: []int{0}}} {
		for _, k := range Kinds() {
			d, err := p.Time(k)
			if err != nil {
				t.Fatalf("%s on %v/%v: %v", k, p.CPUs, p.PartnerCPUs, err)
			}
			if len(d) != 50 {
				t.Fatalf("%s: %d round trips, want 50", k, len(d))
			}
			f := Summarize(d)
			t.Logf("%s on %v/%v: median %v, p90 %v", k, p.CPUs, p.PartnerCPUs, f.Median, f.P90)
			if f.Median < 100*time.Nanosecond || f.P90 > limit || f.P90 < f.Median {
				t.Errorf("%s: median %v, p90 %v: not a round trip through the kernel", k, f.Median, f.P90)
			}
		}
	}
}

func TestProbeOnAMissingCPUFails(t *testing.T) {
	for _, k := range Kinds() {
		for _, p := range []*Probe{{Trips: 5, CPUs: []int{1000}}, {Trips: 5, PartnerCPUs: []int{1000}}} {
			start := time.Now()
			if _, err := p.Time(k); err == nil || !strings.Contains(err.Error(), "[1000]") {
				t.Errorf("%s pinned to CPU 1000 (%v/%v): err = %v, want one naming the CPU", k, p.CPUs, p.PartnerCPUs,
					err)
			}
			if time.Since(start) > limit/2 {
				t.Errorf("%s: a failed pin took %v to report", k, time.Since(start))
			}
		}
	}
}

func TestSummarizeByNearestRank(t *testing.T) {
	var d []time.Duration
	for i := 10; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Microsecond)
	}
	f := Summarize(d)
	if f.Median != 5*time.Microsecond || f.P90 != 9*time.Microsecond || f.N != 10 {
		t.Fatalf("Summarize(1..10 µs) = %+v, want median 5 µs, p90 9 µs, n 10", f)
	}
	if d[0] != 10*time.Microsecond {
		t.Error("Summarize sorted its argument")
	}
}

func TestReadingStringParsesBack(t *testing.T) {
	r := Reading{Figures: map[Kind]Figures{
		Thread: {Median: 41234 * time.Nanosecond, P90: 63 * time.Microsecond, N: 9},
		TCP:    {Median: 7 * time.Microsecond, P90: 120400 * time.Nanosecond, N: 9},
	}, Failed: map[Kind]string{Process: "no cat"}}
	s := r.String()
	if want := "thread 41.2/63.0 µs, process unavailable, tcp 7.00/120 µs"; s != want {
		t.Fatalf("String() = %q, want %q", s, want)
	}
	back := Parse("wakeup: " + s + " (round trip median/p90)")
	if back.Figures[Thread].Median != 41200*time.Nanosecond || back.Figures[TCP].P90 != 120*time.Microsecond {
		t.Errorf("Parse(%q) = %+v", s, back.Figures)
	}
	if _, ok := back.Figures[Process]; ok {
		t.Error("Parse found figures for an unavailable kind")
	}
}

func TestDifferencesAboveTheFactorOnly(t *testing.T) {
	old := Parse("thread 40.0/60.0 µs, process 50.0/70.0 µs, tcp 100/150 µs")
	new := Parse("thread 55.0/90.0 µs, process 20.0/30.0 µs")
	got := Differences(old, new, 1.5)
	if len(got) != 1 || got[0].Kind != Process || got[0].Factor != 2.5 {
		t.Fatalf("Differences = %+v, want process alone, 2.5×", got)
	}
	if s := got[0].String(); s != "process 2.5× faster (50.0 → 20.0 µs median)" {
		t.Errorf("String() = %q", s)
	}
}

func TestRecorderKeepsRunsApart(t *testing.T) {
	r := &Recorder{Probe: Probe{Trips: 20}, Count: 2}
	for p := range 3 { // runs 1, 2, 1
		r.Pass(p)
	}
	facts := r.Facts()
	if len(facts) != 3 || facts[0][0] != "wakeup" || facts[1][0] != "wakeup-run-1" || facts[2][0] != "wakeup-run-2" {
		t.Fatalf("Facts() = %v, want wakeup, wakeup-run-1, wakeup-run-2", facts)
	}
	if !strings.Contains(facts[0][1], "20 before each of 3 passes") {
		t.Errorf("session fact %q does not say how many trips and passes", facts[0][1])
	}
	if n := r.Session().Figures[Thread].N; n != 60 {
		t.Errorf("session: %d thread round trips, want 60", n)
	}
	if rd, _ := r.Run(1); rd.Figures[TCP].N != 40 {
		t.Errorf("run 1: %d tcp round trips, want 40 (passes 0 and 2)", rd.Figures[TCP].N)
	}
	for _, k := range Kinds() {
		if got := Parse(facts[0][1]).Figures[k]; got.Median <= 0 {
			t.Errorf("session fact %q: no %s figures", facts[0][1], k)
		}
	}
	if (&Recorder{Count: 2}).Facts() != nil {
		t.Error("a recorder that timed nothing has facts")
	}
}

// holds reports whether this process has path open.
func holds(t *testing.T, path string) bool {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && l == path {
			return true
		}
	}
	return false
}

func TestIdleHoldWritesZeroAndReleases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu_dma_latency")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := HoldIdleLatency(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Held() || !holds(t, path) {
		t.Fatal("the request is not held open")
	}
	if b, _ := os.ReadFile(path); len(b) != 4 || strings.Trim(string(b), "\x00") != "" {
		t.Fatalf("wrote %q, want a 32-bit zero", b)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if h.Held() || holds(t, path) {
		t.Fatal("the request is still held after Release")
	}
	if err := h.Release(); err != nil {
		t.Fatalf("second Release: %v", err)
	}
}

func TestIdleHoldSaysWhyNot(t *testing.T) {
	dir := t.TempDir()
	if _, err := HoldIdleLatency(filepath.Join(dir, "none"), 0); err == nil ||
		!strings.Contains(err.Error(), "no PM QoS") {
		t.Errorf("missing device: err = %v", err)
	}
	if os.Getuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.WriteFile(ro, nil, 0o400)
		if _, err := HoldIdleLatency(ro, 0); err == nil || !strings.Contains(err.Error(), "not writable") {
			t.Errorf("read-only device: err = %v", err)
		}
	}
}

// TestRealDMALatency holds the kernel's own interface where this process
// may: the kernel keeps the request while the file is open.
func TestRealDMALatency(t *testing.T) {
	h, err := HoldIdleLatency(DMALatencyPath, 0)
	if err != nil {
		t.Skip(err)
	}
	defer h.Release()
	if !holds(t, DMALatencyPath) {
		t.Fatal("not held")
	}
	b, err := os.ReadFile(DMALatencyPath)
	if err == nil && len(b) == 4 {
		// Reading gives the current system-wide target: ours, 0.
		if v := int32(b[0]) | int32(b[1])<<8 | int32(b[2])<<16 | int32(b[3])<<24; v != 0 {
			t.Errorf("the kernel's target is %d µs while 0 is held", v)
		}
	} else {
		t.Logf("read %s: %q %v", DMALatencyPath, b, err)
	}
}
