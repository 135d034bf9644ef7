package bench

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

func TestMeasureRunsEveryOperationOnce(t *testing.T) {
	var seen []int
	op := func(i int) error { seen = append(seen, i); return nil }
	h := NewLatencyHistogram()
	s, err := Measure(Run{Op: op}, 5, 10, h)
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 10 || len(seen) != 10 || seen[0] != 5 || seen[9] != 14 {
		t.Fatalf("N=%d, operations %v; want 10 operations 5..14", s.N, seen)
	}
	if got := s.Latency.TotalCount(); got < 1 || got > 10 {
		t.Errorf("histogram holds %d values, want 1 to 10", got)
	}
	if s.Elapsed <= 0 || s.NsPerOp() <= 0 {
		t.Errorf("elapsed %v, ns/op %v: want positive", s.Elapsed, s.NsPerOp())
	}
}

func TestMeasureSamplesOneInSampleGapOperations(t *testing.T) {
	const n = 100_000
	s, err := Measure(Run{Op: func(int) error { return nil }}, 0, n, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	got, want := float64(s.Latency.TotalCount()), float64(n)/SampleGap
	if got < 0.9*want || got > 1.1*want {
		t.Errorf("sampled %v operations of %d, want about %v", got, n, want)
	}
}

func TestMeasureStopsAtFirstError(t *testing.T) {
	wrong := errors.New("wrong row")
	calls := 0
	op := func(i int) error {
		calls++
		if i == 3 {
			return wrong
		}
		return nil
	}
	_, err := Measure(Run{Op: op}, 0, 100, NewLatencyHistogram())
	if !errors.Is(err, wrong) || calls != 4 {
		t.Fatalf("err=%v after %d calls; want the op's error after 4", err, calls)
	}
}

var sink []byte

func TestMeasureCountsAllocations(t *testing.T) {
	op := func(int) error { sink = make([]byte, 1024); return nil }
	s, err := Measure(Run{Op: op}, 0, 1000, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	if b := float64(s.Bytes) / float64(s.N); b < 1024 || b > 1100 {
		t.Errorf("B/op = %.1f, want about 1024", b)
	}
	if a := float64(s.Allocs) / float64(s.N); a < 1 || a > 1.1 {
		t.Errorf("allocs/op = %.2f, want about 1", a)
	}
}

func TestWarmRunsUntimedOperations(t *testing.T) {
	n := 0
	if err := Warm(Run{Op: func(int) error { n++; return nil }}, 7); err != nil || n != 7 {
		t.Fatalf("Warm ran %d operations (err %v), want 7", n, err)
	}
}

func TestOpsAtScales(t *testing.T) {
	w := Workload{Ops: 10_000}
	for _, c := range []struct {
		scale float64
		want  int
	}{{1, 10_000}, {0.1, 1_000}, {0.00001, 1}, {2.5, 25_000}} {
		if got := w.OpsAt(c.scale); got != c.want {
			t.Errorf("OpsAt(%g) = %d, want %d", c.scale, got, c.want)
		}
	}
}

// BenchmarkHarnessOverhead times the harness's own loop around an operation
// that does nothing: its ns/op is what the harness adds to every measured
// operation (the loop, and the sampled clock reads and histogram updates).
func BenchmarkHarnessOverhead(b *testing.B) {
	h := NewLatencyHistogram()
	noop := func(int) error { return nil }
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := Measure(Run{Op: noop}, 0, b.N, h); err != nil {
		b.Fatal(err)
	}
}

func TestParallelRunsEveryOperationOnce(t *testing.T) {
	const clients, n = 4, 10_000
	var mu sync.Mutex
	seen := make([]int, n+100)
	perClient := make([]int, clients)
	ops := make([]func(int) error, clients)
	for w := range ops {
		ops[w] = func(i int) error {
			mu.Lock()
			seen[i]++
			perClient[w]++
			mu.Unlock()
			return nil
		}
	}
	s, err := Measure(Run{Parallel: ops}, 100, n, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range seen {
		if want := map[bool]int{true: 1, false: 0}[i >= 100]; c != want {
			t.Fatalf("operation %d ran %d times, want %d", i, c, want)
		}
	}
	if s.N != n || s.Latency.TotalCount() < n/(2*SampleGap) {
		t.Fatalf("N = %d, %d latencies sampled", s.N, s.Latency.TotalCount())
	}
}

func TestParallelStopsAtFirstError(t *testing.T) {
	var ran atomic.Int64
	ops := []func(int) error{
		func(i int) error { ran.Add(1); return nil },
		func(i int) error {
			ran.Add(1)
			if i > 50 {
				return errors.New("boom")
			}
			return nil
		},
	}
	_, err := Measure(Run{Parallel: ops}, 0, 1_000_000, NewLatencyHistogram())
	if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "client 1") {
		t.Fatalf("err = %v, want client 1's boom", err)
	}
	if ran.Load() > 500_000 {
		t.Fatalf("%d operations ran after the failure", ran.Load())
	}
}

func TestBatchAndFinishAreTimedOnce(t *testing.T) {
	var got [2]int
	finished := 0
	r := Run{
		Batch:      func(first, n int) error { got = [2]int{first, n}; time.Sleep(2 * time.Millisecond); return nil },
		Finish:     func() error { finished++; time.Sleep(2 * time.Millisecond); return nil },
		BytesPerOp: 10,
	}
	s, err := Measure(r, 5, 1000, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	if got != [2]int{5, 1000} || finished != 1 {
		t.Fatalf("batch %v, finish ran %d times", got, finished)
	}
	if s.Elapsed < 4*time.Millisecond || s.Latency != nil || s.BytesPerOp != 10 {
		t.Fatalf("sample %+v: want both calls timed, no latencies, the payload kept", s)
	}
	r.Finish = func() error { return errors.New("commit refused") }
	if _, err := Measure(r, 0, 10, NewLatencyHistogram()); err == nil ||
		!strings.Contains(err.Error(), "finish: commit refused") {
		t.Fatalf("err = %v", err)
	}
}

// burn spins until the calling thread has used d of CPU.
func burn(d time.Duration) {
	var ts syscall.Timespec
	read := func() time.Duration {
		// CLOCK_THREAD_CPUTIME_ID (3): this thread's own CPU time.
		syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
		return time.Duration(ts.Nano())
	}
	for end := read() + d; read() < end; {
	}
}

type countProbe struct{ starts, stops int }

func (p *countProbe) Start() { p.starts++ }
func (p *countProbe) Stop()  { p.stops++ }

func TestProbeIsReadOncePerRun(t *testing.T) {
	p := &countProbe{}
	if _, err := MeasureProbed(Run{Op: func(int) error { return nil }}, 0, 1000, NewLatencyHistogram(),
		Options{Probe: p}); err != nil {
		t.Fatal(err)
	}
	if p.starts != 1 || p.stops != 1 {
		t.Fatalf("probe started %d and stopped %d times, want once each", p.starts, p.stops)
	}
}

// BenchmarkProcessCPU times the read of the process's CPU time that
// Measure makes twice per run (never per operation).
func BenchmarkProcessCPU(b *testing.B) {
	for b.Loop() {
		if _, err := processCPU(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMeasureForATime: a parallel run with a Duration stops claiming
// operations at its deadline, well before its count, and its sample counts
// the operations done.
func TestMeasureForATime(t *testing.T) {
	op := func(int) error { time.Sleep(time.Millisecond); return nil }
	r := Run{Parallel: []func(int) error{op, op}, Duration: 100 * time.Millisecond}
	s, err := Measure(r, 0, 1_000_000, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	// Two clients of 1 ms operations (more on a loaded machine) for 100 ms.
	if s.N < 10 || s.N > 200 {
		t.Errorf("%d operations in 100 ms on two clients of 1 ms each", s.N)
	}
	if s.Elapsed < 100*time.Millisecond || s.Elapsed > 400*time.Millisecond {
		t.Errorf("the run lasted %v, want about 100ms", s.Elapsed)
	}
	if _, err := Measure(Run{Op: op, Duration: time.Second}, 0, 1, NewLatencyHistogram()); err == nil {
		t.Error("a sequential run for a time was accepted")
	}
}

// TestTheTimedRegionAddsNoAllocation: a run whose operations allocate
// nothing measures 0 allocations and 0 bytes, whatever its length: the
// harness's own code between the two memory readings (the callgrind
// requests around the timed region included) allocates nothing, so a
// whole-workload cell of a few operations is not charged for it.
func TestTheTimedRegionAddsNoAllocation(t *testing.T) {
	op := func(int) error { return nil }
	for _, n := range []int{1, 5, 1000} {
		var s Sample
		var err error
		for range 3 { // a stray runtime allocation once is not the harness's
			if s, err = Measure(Run{Op: op}, 0, n, NewLatencyHistogram()); err != nil {
				t.Fatal(err)
			}
			if s.Allocs == 0 {
				break
			}
		}
		if s.Allocs != 0 || s.Bytes != 0 {
			t.Errorf("%d operations that allocate nothing: %d allocations, %d bytes", n, s.Allocs, s.Bytes)
		}
	}
}

// TestAnUncollectedRunStartsWithoutACollection: the clock of a run starts
// after a collection of the heap, unless the run is Uncollected (a read
// timed in the heap its untimed insert left, as go-sqlite-bench's).
func TestAnUncollectedRunStartsWithoutACollection(t *testing.T) {
	for _, uncollected := range []bool{false, true} {
		var before, at runtime.MemStats
		runtime.ReadMemStats(&before)
		op := func(int) error { runtime.ReadMemStats(&at); return nil }
		if _, err := Measure(Run{Op: op, Uncollected: uncollected}, 0, 1, NewLatencyHistogram()); err != nil {
			t.Fatal(err)
		}
		forced := at.NumForcedGC - before.NumForcedGC
		if uncollected && forced != 0 || !uncollected && forced == 0 {
			t.Errorf("Uncollected %v: %d forced collections before the operation", uncollected, forced)
		}
	}
}
