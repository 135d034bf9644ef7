package bench

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// maxLatency is the longest single operation the histogram tracks; longer
// ones are recorded as this value.
const maxLatency = int64(time.Hour)

// Sample is what one timed run measured.
type Sample struct {
	// N is the number of operations timed.
	N int
	// Elapsed is the wall time of the N operations.
	Elapsed time.Duration
	// Bytes and Allocs are the heap bytes and objects the process allocated
	// during the run (runtime.MemStats deltas).
	Bytes, Allocs uint64
	// Latency holds the latencies of the sampled operations (see
	// SampleGap), in nanoseconds; nil for a Batch run.
	Latency *hdrhistogram.Histogram
	// BytesPerOp is the run's payload per operation (Run.BytesPerOp).
	BytesPerOp float64
	// PeakRSS is the process's peak resident set size in bytes while the
	// run was begun, warmed up, timed and verified, and RSSGrowth how far
	// that peak rose above the resident size when the run began: what the
	// run itself added, whatever else the process holds. Both are 0 when
	// unknown (set by the runner, not by Measure).
	PeakRSS, RSSGrowth int64
	// ClientCPU is the CPU time, user and system, of every thread of the
	// process during the timed region (zero when ClientCPUKnown is false).
	ClientCPU      time.Duration
	ClientCPUKnown bool
	// ServerCPU is the CPU time of the server's processes during the timed
	// region, as the Probe given to MeasureProbed read it; ServerCPUKnown
	// is false when no probe read it.
	ServerCPU      time.Duration
	ServerCPUKnown bool
}

// Probe is read right around the timed region of a run (see
// MeasureProbed): Start just before the first operation, Stop just after
// the last (and Finish). Neither is called per operation.
type Probe interface {
	Start()
	Stop()
}

// NsPerOp returns the mean time per operation in nanoseconds.
func (s Sample) NsPerOp() float64 { return float64(s.Elapsed.Nanoseconds()) / float64(s.N) }

// NewLatencyHistogram returns a histogram for per-operation latencies in
// nanoseconds, 1 ns to one hour at three significant digits.
func NewLatencyHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, maxLatency, 3)
}

// Warm runs operations [0, n) of r untimed, in the same manner as Measure.
func Warm(r Run, n int) error {
	if n <= 0 {
		return nil
	}
	if r.Timer != nil {
		r.Timer.reset()
	}
	var err error
	switch {
	case r.Batch != nil:
		err = r.Batch(0, n)
	case r.Parallel != nil:
		err = runParallel(r.Parallel, 0, n, nil)
	case r.Op != nil:
		for i := 0; i < n && err == nil; i++ {
			if err = r.Op(i); err != nil {
				err = fmt.Errorf("operation %d: %w", i, err)
			}
		}
	default:
		return errors.New("run has no operations")
	}
	if err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	return nil
}

// SampleGap is the mean distance between operations whose latency is
// recorded. Reading the clock costs about 35 ns on common virtual machines,
// more than the harness may add to an operation, so latency is sampled: the
// gaps are drawn at random from 1 to 2*SampleGap-1 (a fixed seed, so the
// positions repeat run to run) so that no periodic pattern of a workload
// (such as a statement prepared every 100 operations) is over- or
// under-sampled.
const SampleGap = 8

// Measure times operations [first, first+n) of r. The run's elapsed time
// comes from two clock reads around the whole run (Finish included); the
// latency of a random 1 in SampleGap operations goes into h (which is reset
// first). Memory statistics are read before and after. An error from an
// operation ends the run: a failed run has no sample.
func Measure(r Run, first, n int, h *hdrhistogram.Histogram) (Sample, error) {
	return MeasureProbed(r, first, n, h, nil)
}

// MeasureProbed is Measure with the process's CPU time read around the
// timed region (Sample.ClientCPU) and p, when not nil, started and
// stopped around it, inside the CPU reads. Nothing is read per operation.
func MeasureProbed(r Run, first, n int, h *hdrhistogram.Histogram, p Probe) (Sample, error) {
	h.Reset()
	var hs []*hdrhistogram.Histogram
	if len(r.Parallel) > 0 {
		hs = make([]*hdrhistogram.Histogram, len(r.Parallel))
		hs[0] = h
		for i := 1; i < len(hs); i++ {
			hs[i] = NewLatencyHistogram()
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if r.Timer != nil {
		if r.Parallel != nil {
			return Sample{}, errors.New("a parallel run cannot pause its timer")
		}
		r.Timer.reset()
	}
	if p != nil {
		p.Start()
	}
	cpu0, cpuErr := processCPU()
	start := time.Now()
	var err error
	switch {
	case r.Batch != nil:
		err = r.Batch(first, n)
	case r.Parallel != nil:
		err = runParallel(r.Parallel, first, n, hs)
	case r.Op != nil:
		err = sequential(r.Op, first, n, h, r.Timer)
	default:
		err = errors.New("run has no operations")
	}
	if err == nil && r.Finish != nil {
		if err = r.Finish(); err != nil {
			err = fmt.Errorf("finish: %w", err)
		}
	}
	elapsed := time.Since(start)
	cpu1, cpuErr1 := processCPU()
	if p != nil {
		p.Stop()
	}
	var paused time.Duration
	if r.Timer != nil {
		r.Timer.Start() // a run that ended paused
		paused = r.Timer.Paused()
		elapsed -= paused
	}
	runtime.ReadMemStats(&after)
	if err != nil {
		return Sample{}, err
	}
	s := Sample{
		N:          n,
		Elapsed:    elapsed,
		Bytes:      after.TotalAlloc - before.TotalAlloc,
		Allocs:     after.Mallocs - before.Mallocs,
		BytesPerOp: r.BytesPerOp,
	}
	if cpuErr == nil && cpuErr1 == nil {
		// The paused regions generate data on this one goroutine with
		// nothing else of the run in flight: their wall time stands for
		// their CPU time (a pause has no CPU clock of its own: reading
		// one would cost more than the pause).
		s.ClientCPU, s.ClientCPUKnown = max(cpu1-cpu0-paused, 0), true
	}
	if r.Batch == nil {
		for _, o := range hs[min(1, len(hs)):] {
			h.Merge(o)
		}
		s.Latency = h
	}
	return s, nil
}

// sequential is the loop of a plain run; it adds nothing to an unsampled
// operation but a comparison. The latency of a sampled operation excludes
// what it paused on t (which may be nil).
func sequential(op func(int) error, first, n int, h *hdrhistogram.Histogram, t *Timer) error {
	rng := rand.New(rand.NewPCG(uint64(n), SampleGap))
	end := first + n
	next := first + rng.IntN(min(SampleGap, n)) // at least one sample per run
	start := time.Now()
	for i := first; i < end; i++ {
		if i != next {
			if err := op(i); err != nil {
				return fmt.Errorf("operation %d: %w", i-first, err)
			}
			continue
		}
		t0, p0 := time.Since(start), t.pausedNow()
		err := op(i)
		d := int64(time.Since(start) - t0 - (t.pausedNow() - p0))
		if err != nil {
			return fmt.Errorf("operation %d: %w", i-first, err)
		}
		_ = h.RecordValue(min(d, maxLatency)) // cannot fail: within range
		next = i + 1 + rng.IntN(2*SampleGap-1)
	}
	return nil
}

// runParallel runs ops [first, first+n) on one goroutine per function in
// ops, each taking the next number from a shared counter; hs, when set,
// holds one histogram per goroutine. The first error stops every goroutine.
func runParallel(ops []func(int) error, first, n int, hs []*hdrhistogram.Histogram) error {
	var (
		claim  atomic.Int64
		failed atomic.Bool
		wg     sync.WaitGroup
		errs   = make([]error, len(ops))
	)
	claim.Store(int64(first))
	end := int64(first + n)
	start := time.Now()
	for w, op := range ops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(n)+uint64(w)<<32, SampleGap))
			sample := rng.IntN(SampleGap)
			for k := 0; !failed.Load(); k++ {
				i := claim.Add(1) - 1
				if i >= end {
					return
				}
				var err error
				if hs != nil && k == sample {
					t0 := time.Since(start)
					err = op(int(i))
					_ = hs[w].RecordValue(min(int64(time.Since(start)-t0), maxLatency))
					sample = k + 1 + rng.IntN(2*SampleGap-1)
				} else {
					err = op(int(i))
				}
				if err != nil {
					errs[w] = fmt.Errorf("client %d, operation %d: %w", w, int(i)-first, err)
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
