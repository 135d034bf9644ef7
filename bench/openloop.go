package bench

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// OpenLoop asks MeasureProbed for an open-loop run: operations arrive on
// a schedule of their own, Poisson arrivals at Rate per second (as
// pgbench's --rate draws them), whether or not the earlier ones have
// finished, and each operation's latency runs from its scheduled start,
// not from when a client got to it: a stall of the server shows in the
// latency of every operation scheduled during it (no coordinated
// omission), not only as fewer operations done.
type OpenLoop struct {
	// Rate is the mean arrival rate, operations per second; above 0.
	Rate float64
	// LatencyLimit, when above 0, is pgbench's --latency-limit: an
	// operation whose schedule is already more than the limit behind when a
	// client would start it is skipped (not run), and one that finishes more
	// than the limit after its scheduled start is late.
	LatencyLimit time.Duration
	// Progress, when above 0, closes an interval of the run's time series
	// every Progress (OpenLoopStats.Series), and hands each to OnProgress,
	// if set, as it closes (on a goroutine of the harness, not a client's).
	Progress   time.Duration
	OnProgress func(Interval)
	// Seed seeds the arrival schedule: a run's schedule repeats with its
	// seed.
	Seed uint64
}

// Interval is one interval of an open-loop run's time series: what
// finished in it.
type Interval struct {
	// End is the interval's end, from the start of the run's operations.
	End time.Duration
	// Length is the interval's length (the last may be shorter than
	// OpenLoop.Progress).
	Length time.Duration
	// Ops are the operations that finished in the interval, Late those of
	// them over the latency limit, Skipped those skipped in it.
	Ops, Late, Skipped int
	// P50, P99 and Max are the latencies from the scheduled start of the
	// operations that finished in it; MeanLag their mean schedule lag.
	P50, P99, Max, MeanLag time.Duration
}

// String returns the interval as one line: its end, the rate of
// operations finished in it, their latency percentiles and mean lag, and
// the late and skipped counts.
func (iv Interval) String() string {
	rate := 0.0
	if iv.Length > 0 {
		rate = float64(iv.Ops) / iv.Length.Seconds()
	}
	r := func(d time.Duration) time.Duration { return d.Round(time.Microsecond) }
	return fmt.Sprintf("t=%v ops/s=%.1f p50=%v p99=%v max=%v lag=%v late=%d skipped=%d",
		iv.End.Round(time.Millisecond), rate, r(iv.P50), r(iv.P99), r(iv.Max), r(iv.MeanLag), iv.Late, iv.Skipped)
}

// OpenLoopStats is what an open-loop run measured beside its latencies.
type OpenLoopStats struct {
	// Rate and LatencyLimit are the run's settings.
	Rate         float64
	LatencyLimit time.Duration
	// Done are the operations run; Skipped those skipped (the run's
	// Sample.N counts both: the arrivals); Late the operations done that
	// finished more than the latency limit after their scheduled start.
	Done, Late, Skipped int
	// Lag is the operations' total schedule lag: how long after its
	// scheduled start each began; MaxLag the longest.
	Lag, MaxLag time.Duration
	// Series is the run's time series, when OpenLoop.Progress is set.
	Series []Interval
}

// MeanLag returns the mean schedule lag of the operations done.
func (s OpenLoopStats) MeanLag() time.Duration {
	if s.Done == 0 {
		return 0
	}
	return s.Lag / time.Duration(s.Done)
}

// schedule draws the arrival times of an open-loop run: the next
// operation's number and its scheduled start, from the start of the run.
// It is shared by the clients.
type schedule struct {
	mu   sync.Mutex
	rng  *rand.Rand
	rate float64
	next int
	end  int
	at   float64 // seconds from the start, of the last arrival drawn
}

// claim returns the next operation and its scheduled start; ok is false
// once the run's operations are all claimed.
func (s *schedule) claim() (i int, at time.Duration, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= s.end {
		return 0, 0, false
	}
	s.at += s.rng.ExpFloat64() / s.rate // Poisson arrivals: exponential gaps
	i = s.next
	s.next++
	return i, time.Duration(s.at * 1e9), true
}

// recorder gathers an open-loop run's latencies and counts, and its time
// series' current interval; the clients share it.
type recorder struct {
	mu    sync.Mutex
	h     *hdrhistogram.Histogram
	limit time.Duration
	stats OpenLoopStats
	// The current interval of the time series, when there is one.
	series       bool
	ih           *hdrhistogram.Histogram
	iOps, iLate  int
	iSkip        int
	iLag         time.Duration
	intervalFrom time.Duration
}

func (r *recorder) skip() {
	r.mu.Lock()
	r.stats.Skipped++
	r.iSkip++
	r.mu.Unlock()
}

func (r *recorder) done(lag, latency time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	_ = r.h.RecordValue(min(int64(latency), maxLatency)) // cannot fail: within range
	r.stats.Done++
	r.stats.Lag += lag
	r.stats.MaxLag = max(r.stats.MaxLag, lag)
	late := r.limit > 0 && latency > r.limit
	if late {
		r.stats.Late++
	}
	if r.series {
		_ = r.ih.RecordValue(min(int64(latency), maxLatency))
		r.iOps++
		r.iLag += lag
		if late {
			r.iLate++
		}
	}
}

// close ends the current interval at end and starts the next.
func (r *recorder) close(end time.Duration) Interval {
	r.mu.Lock()
	defer r.mu.Unlock()
	iv := Interval{End: end, Length: end - r.intervalFrom, Ops: r.iOps, Late: r.iLate, Skipped: r.iSkip}
	if r.iOps > 0 {
		iv.P50 = time.Duration(r.ih.ValueAtQuantile(50))
		iv.P99 = time.Duration(r.ih.ValueAtQuantile(99))
		iv.Max = time.Duration(r.ih.Max())
		iv.MeanLag = r.iLag / time.Duration(r.iOps)
	}
	r.ih.Reset()
	r.iOps, r.iLate, r.iSkip, r.iLag = 0, 0, 0, 0
	r.intervalFrom = end
	r.stats.Series = append(r.stats.Series, iv)
	return iv
}

// flush closes the run's last interval at end: one of its own unless it is
// shorter than a tenth of an interval (the clients' last moments after the
// last tick), when its counts go to the interval before, whose percentiles
// stay its own. The intervals handed on (OnProgress) are those before it.
func (r *recorder) flush(end time.Duration, ol *OpenLoop) {
	if n := len(r.stats.Series); n > 0 && end-r.intervalFrom < ol.Progress/10 {
		r.mu.Lock()
		last := &r.stats.Series[n-1]
		last.Ops, last.Late, last.Skipped = last.Ops+r.iOps, last.Late+r.iLate, last.Skipped+r.iSkip
		last.End, last.Length = end, last.Length+end-r.intervalFrom
		r.mu.Unlock()
		return
	}
	iv := r.close(end)
	if ol.OnProgress != nil {
		ol.OnProgress(iv)
	}
}

// runOpenLoop runs operations [first, first+n) of ops as an open-loop
// run: one client per function in ops, each claiming the next scheduled
// operation, sleeping until its scheduled start, and running it (or
// skipping it, past the latency limit). Every operation's latency from its
// scheduled start goes into h. It stops claiming at the deadline, when set,
// and at the first error. It returns the operations claimed (done and
// skipped). With threads set, each client locks itself to its thread and
// reads its clock as runParallelFor's do; inline runs client 0 on the
// calling goroutine (a sequential run's, whose thread the caller reads).
func runOpenLoop(ops []func(int) error, first, n int, h *hdrhistogram.Histogram, threads []threadTimes,
	deadline time.Time, ol *OpenLoop, inline bool) (int, OpenLoopStats, error) {
	if !(ol.Rate > 0) {
		return 0, OpenLoopStats{}, fmt.Errorf("open-loop rate must be above 0, got %v", ol.Rate)
	}
	sched := &schedule{rng: rand.New(rand.NewPCG(ol.Seed, uint64(n))), rate: ol.Rate, next: first, end: first + n}
	rec := &recorder{h: h, limit: ol.LatencyLimit, series: ol.Progress > 0}
	rec.stats.Rate, rec.stats.LatencyLimit = ol.Rate, ol.LatencyLimit
	if rec.series {
		rec.ih = NewLatencyHistogram()
	}
	var (
		mu     sync.Mutex
		failed bool
		errs   = make([]error, len(ops))
		wg     sync.WaitGroup
	)
	stopped := func() bool { mu.Lock(); defer mu.Unlock(); return failed }
	start := time.Now()
	client := func(w int, op func(int) error) {
		if threads != nil && !inline {
			defer clockThread(&threads[w])()
		}
		for !stopped() {
			if !deadline.IsZero() && !time.Now().Before(deadline) {
				return
			}
			i, at, ok := sched.claim()
			if !ok {
				return
			}
			if wait := at - time.Since(start); wait > 0 {
				if !deadline.IsZero() && time.Until(deadline) < wait {
					return // scheduled after the run's end
				}
				time.Sleep(wait)
			}
			began := time.Since(start)
			lag := max(began-at, 0)
			if ol.LatencyLimit > 0 && lag > ol.LatencyLimit {
				rec.skip() // already late: pgbench skips it
				continue
			}
			if err := op(i); err != nil {
				errs[w] = fmt.Errorf("client %d, operation %d: %w", w, i-first, err)
				mu.Lock()
				failed = true
				mu.Unlock()
				return
			}
			rec.done(lag, time.Since(start)-at)
		}
	}
	stop := make(chan struct{})
	ticked := make(chan struct{})
	if rec.series {
		go func() {
			defer close(ticked)
			t := time.NewTicker(ol.Progress)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					iv := rec.close(time.Since(start))
					if ol.OnProgress != nil {
						ol.OnProgress(iv)
					}
				}
			}
		}()
	} else {
		close(ticked)
	}
	for w, op := range ops {
		if inline && w == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			client(w, op)
		}()
	}
	if inline && len(ops) > 0 {
		client(0, ops[0])
	}
	wg.Wait()
	close(stop)
	<-ticked
	if rec.series {
		rec.flush(time.Since(start), ol)
	}
	// The arrivals: an operation claimed after the deadline was not.
	return rec.stats.Done + rec.stats.Skipped, rec.stats, errors.Join(errs...)
}
