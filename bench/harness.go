package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
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
	// SampleGap), in nanoseconds.
	Latency *hdrhistogram.Histogram
}

// NsPerOp returns the mean time per operation in nanoseconds.
func (s Sample) NsPerOp() float64 { return float64(s.Elapsed.Nanoseconds()) / float64(s.N) }

// NewLatencyHistogram returns a histogram for per-operation latencies in
// nanoseconds, 1 ns to one hour at three significant digits.
func NewLatencyHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, maxLatency, 3)
}

// Warm runs operations [0, n) of op untimed.
func Warm(op func(int) error, n int) error {
	for i := 0; i < n; i++ {
		if err := op(i); err != nil {
			return fmt.Errorf("warm-up operation %d: %w", i, err)
		}
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

// Measure times operations [first, first+n) of op. The run's elapsed time
// comes from two clock reads around the whole loop; the latency of a random
// 1 in SampleGap operations goes into h (which is reset first). Memory
// statistics are read before and after the loop. An error from op ends the
// run: a failed run has no sample.
func Measure(op func(int) error, first, n int, h *hdrhistogram.Histogram) (Sample, error) {
	h.Reset()
	rng := rand.New(rand.NewPCG(uint64(n), SampleGap))
	gap := func() int { return 1 + rng.IntN(2*SampleGap-1) }
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	end := first + n
	next := first + rng.IntN(min(SampleGap, n)) // at least one sample per run
	start := time.Now()
	for i := first; i < end; i++ {
		if i != next {
			if err := op(i); err != nil {
				return Sample{}, fmt.Errorf("operation %d: %w", i-first, err)
			}
			continue
		}
		t0 := time.Since(start)
		err := op(i)
		d := int64(time.Since(start) - t0)
		if err != nil {
			return Sample{}, fmt.Errorf("operation %d: %w", i-first, err)
		}
		_ = h.RecordValue(min(d, maxLatency)) // cannot fail: within range
		next = i + gap()
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	return Sample{
		N:       n,
		Elapsed: elapsed,
		Bytes:   after.TotalAlloc - before.TotalAlloc,
		Allocs:  after.Mallocs - before.Mallocs,
		Latency: h,
	}, nil
}
