package bench

import (
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// The schedule's gaps are exponential at the rate: their mean is 1/rate
// and their standard deviation equals their mean.
func TestOpenLoopScheduleIsPoissonAtTheRate(t *testing.T) {
	const rate, n = 2500.0, 200_000
	s := &schedule{rng: rand.New(rand.NewPCG(7, 9)), rate: rate, end: n}
	var prev time.Duration
	var sum, sumSq float64
	for k := 0; k < n; k++ {
		i, at, ok := s.claim()
		if !ok || i != k {
			t.Fatalf("claim %d: got %d, %v", k, i, ok)
		}
		gap := (at - prev).Seconds()
		prev = at
		sum += gap
		sumSq += gap * gap
	}
	if _, _, ok := s.claim(); ok {
		t.Fatal("claimed past the run's end")
	}
	mean := sum / n
	sd := math.Sqrt(sumSq/n - mean*mean)
	if got := 1 / mean; math.Abs(got-rate)/rate > 0.01 {
		t.Errorf("mean rate %.1f/s, want %v/s within 1%%", got, rate)
	}
	if cv := sd / mean; math.Abs(cv-1) > 0.02 {
		t.Errorf("coefficient of variation %.3f, want 1 (exponential gaps)", cv)
	}
}

// An open-loop run of quick operations arrives at its rate: its elapsed
// time is its arrivals over the rate, not the operations' own time.
func TestOpenLoopRunKeepsItsRate(t *testing.T) {
	const rate, n = 400.0, 200
	ol := &OpenLoop{Rate: rate, Seed: 1}
	s, err := MeasureProbed(Run{Parallel: []func(int) error{func(int) error { return nil },
		func(int) error { return nil }}}, 0, n, NewLatencyHistogram(), Options{OpenLoop: ol})
	if err != nil {
		t.Fatal(err)
	}
	if s.N != n || s.OpenLoop == nil || s.OpenLoop.Done != n || s.Latency.TotalCount() != n {
		t.Fatalf("N %d, stats %+v, %d latencies; want %d done, every latency recorded", s.N, s.OpenLoop,
			s.Latency.TotalCount(), n)
	}
	got := float64(s.N) / s.Elapsed.Seconds()
	// The schedule's own spread over 200 arrivals is about 7%; a busy
	// machine's late wake-ups can only make the run longer.
	if got > rate*1.25 || got < rate*0.6 {
		t.Errorf("%.0f ops/s, want about %v", got, rate)
	}
}

// stallAt returns an operation that returns at once but for operation
// stall, which sleeps d: the server stalling once mid-run.
func stallAt(stall int, d time.Duration) func(int) error {
	return func(i int) error {
		if i == stall {
			time.Sleep(d)
		}
		return nil
	}
}

// The coordinated-omission test: one client, one operation stalling for
// 100 ms mid-run. A closed loop records one slow operation (the rest wait
// unseen, and the run only does fewer operations); the open loop records
// the stall in the latency of every operation scheduled during it.
func TestOpenLoopShowsAStallInTheLatencyOfWhatWasScheduledDuringIt(t *testing.T) {
	const rate, n, stall = 400.0, 400, 200
	const d = 100 * time.Millisecond
	h := NewLatencyHistogram()
	s, err := MeasureProbed(Run{Op: stallAt(stall, d)}, 0, n, h, Options{OpenLoop: &OpenLoop{Rate: rate, Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	// About 40 operations are scheduled in the 100 ms stall (2.5 ms
	// apart), their latencies spread from 100 ms down: about 20 over 50 ms.
	slow := s.Latency.TotalCount() - countBelow(s.Latency.Distribution(), 50*time.Millisecond)
	if slow < 5 || s.Latency.ValueAtQuantile(99) < int64(50*time.Millisecond) {
		t.Errorf("open loop: %d operations over 50 ms, p99 %v; want the stall in those scheduled during it", slow,
			time.Duration(s.Latency.ValueAtQuantile(99)))
	}
	if s.OpenLoop.MaxLag < 80*time.Millisecond {
		t.Errorf("max schedule lag %v, want the stall's ~100 ms", s.OpenLoop.MaxLag)
	}
	// The same operations closed-loop: only the stalled one is slow (if
	// it is among those sampled); the others waited unseen.
	closed, err := MeasureProbed(Run{Op: stallAt(stall, d)}, 0, n, NewLatencyHistogram(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if slow := closed.Latency.TotalCount() - countBelow(closed.Latency.Distribution(), 50*time.Millisecond); slow > 1 {
		t.Errorf("closed loop: %d operations over 50 ms, want at most the stalled one", slow)
	}
}

func countBelow(bars []hdrhistogram.Bar, limit time.Duration) int64 {
	var n int64
	for _, b := range bars {
		if b.To <= int64(limit) {
			n += b.Count
		}
	}
	return n
}

// With a latency limit, the operations scheduled during a stall longer
// than the limit are skipped once a client reaches them already late, and
// those that run late are counted; the time series accounts for every
// arrival.
func TestOpenLoopLatencyLimitSkipsAndCountsLate(t *testing.T) {
	const rate, n, stall = 200.0, 200, 60
	var seen atomic.Int64
	var series []Interval
	ol := &OpenLoop{Rate: rate, Seed: 5, LatencyLimit: 30 * time.Millisecond, Progress: 200 * time.Millisecond,
		OnProgress: func(iv Interval) { series = append(series, iv) }}
	s, err := MeasureProbed(Run{Op: func(i int) error {
		seen.Add(1)
		return stallAt(stall, 100*time.Millisecond)(i)
	}}, 0, n, NewLatencyHistogram(), Options{OpenLoop: ol})
	if err != nil {
		t.Fatal(err)
	}
	st := s.OpenLoop
	if st.Skipped < 5 || st.Late < 1 || st.Done+st.Skipped != n || int(seen.Load()) != st.Done || s.N != n {
		t.Fatalf("done %d, skipped %d, late %d, ran %d, N %d; want the stall's arrivals skipped, the stalled "+
			"one late, %d arrivals", st.Done, st.Skipped, st.Late, seen.Load(), s.N, n)
	}
	if len(series) < 2 || len(series) != len(st.Series) {
		t.Fatalf("%d intervals handed on, %d recorded; want one per 200 ms of a ~1 s run", len(series), len(st.Series))
	}
	var ops, skipped, late int
	for _, iv := range st.Series {
		ops, skipped, late = ops+iv.Ops, skipped+iv.Skipped, late+iv.Late
	}
	if ops != st.Done || skipped != st.Skipped || late != st.Late {
		t.Errorf("series sums to %d done, %d skipped, %d late; want %d, %d, %d", ops, skipped, late, st.Done,
			st.Skipped, st.Late)
	}
}

// A run an open loop cannot schedule one operation at a time is refused;
// so is a rate that is not above 0.
func TestOpenLoopRefusesWhatItCannotSchedule(t *testing.T) {
	h := NewLatencyHistogram()
	if _, err := MeasureProbed(Run{Batch: func(int, int) error { return nil }}, 0, 10, h,
		Options{OpenLoop: &OpenLoop{Rate: 10}}); err == nil {
		t.Error("a batch run was run open-loop")
	}
	if _, err := MeasureProbed(Run{Op: func(int) error { return nil }}, 0, 10, h,
		Options{OpenLoop: &OpenLoop{Rate: 0}}); err == nil {
		t.Error("rate 0 was accepted")
	}
}
