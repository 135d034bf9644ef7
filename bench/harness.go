package bench

import (
	"errors"
	"fmt"
	"math/bits"
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
	// OnCPU, RunQueue and Blocked divide the run's elapsed time by what
	// the thread that ran the operations was doing, as the kernel's
	// scheduler accounted it (see Measure): running on a CPU, runnable but
	// waiting in a run queue for one, and neither (blocked: waiting for the
	// server, the disk, a lock, a wake-up). They add up to Elapsed, none is
	// negative. A parallel run's are the means over its client threads.
	// All three are zero when ThreadKnown is false (Why says why).
	OnCPU, RunQueue, Blocked time.Duration
	ThreadKnown              bool
	// BackgroundCPU is the CPU time the rest of the process used during the
	// timed region, in parallel with the timing threads: the garbage
	// collector's workers, a driver's own goroutines, the runtime. It is
	// not a part of Elapsed. Known with ThreadKnown.
	BackgroundCPU time.Duration
	// Why says why the thread's times are not known (ThreadKnown false).
	Why string
	// ServerCPU is the CPU time of the server's processes during the timed
	// region, as the Probe given to MeasureProbed read it; ServerCPUKnown
	// is false when no probe read it.
	ServerCPU      time.Duration
	ServerCPUKnown bool
	// Metrics are the run's further values (Run.Metrics), if any.
	Metrics []Metric
	// OpenLoop is what an open-loop run (Options.OpenLoop) measured beside
	// its latencies, which run from each operation's scheduled start; nil
	// for a closed-loop run.
	OpenLoop *OpenLoopStats
}

// Options are the optional parts of a measurement (see MeasureProbed).
type Options struct {
	// Probe, when not nil, is started before the timed region and stopped
	// after it, outside the memory statistics.
	Probe Probe
	// FreeThread leaves the timing goroutine free to move between OS
	// threads, as a plain Go program's would, instead of locking it to one:
	// the run's time is then not divided (Sample.ThreadKnown is false).
	// Locking costs a round trip over the network a hand-over between two
	// threads when the reply arrives (see docs/where-time-goes.md).
	FreeThread bool
	// Continued marks a slice of a run after its first (a run split into
	// slices over the session): the run's Start runs untimed, before the
	// clock and the memory statistics, since its first slice timed it.
	Continued bool
	// Continues marks a slice of a run before its last: the run's Finish
	// runs untimed, after the clock and the memory statistics, since its
	// last slice times it.
	Continues bool
	// Carried marks a continued slice of a run the runner held since its
	// slice before (Run.Carry): what Start made is still there, so the
	// untimed Start of a continued slice is not run.
	Carried bool
	// Carries marks a slice of a run the runner holds for its next
	// (Run.Carry): the untimed Finish of a slice that continues is not run.
	Carries bool
	// OpenLoop, when set, runs the operations open-loop (see OpenLoop):
	// Poisson arrivals at a rate, every operation's latency recorded from
	// its scheduled start. It needs a run whose operations are timed one by
	// one (Op or Parallel), without a paused timer or fanned-out clients.
	OpenLoop *OpenLoop
}

// Probe is read around the timed region of a run (see MeasureProbed):
// Start before the first operation, Stop after the last (and Finish), both
// outside the run's memory statistics so that what the probe allocates is
// not counted as the workload's. Neither is called per operation.
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
// A run with Start is warmed up between a Start and a Finish of its own, so
// that the timed run that follows starts from what Start makes again, as
// the published program's timed region does.
func Warm(r Run, n int) (err error) {
	if n <= 0 {
		return nil
	}
	if r.Timer != nil {
		r.Timer.reset(nil, false)
	}
	if r.Start != nil {
		if err := r.Start(); err != nil {
			return fmt.Errorf("warm-up: start: %w", err)
		}
		if r.Finish != nil {
			defer func() {
				if ferr := r.Finish(); err == nil && ferr != nil {
					err = fmt.Errorf("warm-up: finish: %w", ferr)
				}
			}()
		}
	}
	switch {
	case r.Batch != nil:
		err = r.Batch(0, n)
	case r.Parallel != nil:
		err = runParallel(r.Parallel, 0, n, nil, nil)
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

// Measure times operations [first, first+n) of r, its timing goroutine
// locked to its thread. The run's elapsed time comes from two clock reads
// around the whole run (Start and Finish included); the latency of a random 1 in
// SampleGap operations goes into h (which is reset first). Memory
// statistics are read before and after. An error from an operation ends the
// run: a failed run has no sample.
func Measure(r Run, first, n int, h *hdrhistogram.Histogram) (Sample, error) {
	return MeasureProbed(r, first, n, h, Options{})
}

// MeasureProbed is Measure with options. The run's Start, when set, is
// timed before its first operation, and its Finish after its last, unless
// o says that the run is a slice of a longer run that times them in
// another slice. Unless o.FreeThread, the goroutine
// that runs the operations (each client's, in a parallel run) is locked to
// its OS thread for the run, and that thread's scheduler accounting is read
// right before and right after the timed region: its time on a CPU, in a
// run queue, and the rest, blocked (Sample.OnCPU, RunQueue, Blocked), and
// the process's CPU time, of which what the timing threads did not use is
// Sample.BackgroundCPU. The readings neither allocate nor run per
// operation. o.Probe, when set, is started before the memory statistics
// are read and stopped after, so that nothing it allocates lands in the
// run's B/op. The heap is collected before the clock starts unless the
// run is Uncollected.
func MeasureProbed(r Run, first, n int, h *hdrhistogram.Histogram, o Options) (Sample, error) {
	if r.Timer != nil && r.Parallel != nil {
		return Sample{}, errors.New("a parallel run cannot pause its timer")
	}
	if r.Duration > 0 && r.Parallel == nil {
		return Sample{}, errors.New("only a parallel run can run for a time")
	}
	if o.OpenLoop != nil && (r.Batch != nil || r.Timer != nil || r.Clients != nil) {
		return Sample{}, errors.New("an open-loop run needs operations timed one by one " +
			"(this workload's are a batch, pause their timer or fan out to clients)")
	}
	if r.Clients != nil && (r.Op == nil || r.Parallel != nil || r.Clients.N() == 0) {
		return Sample{}, errors.New("clients fan out from the operations of a sequential run only")
	}
	locked := !o.FreeThread
	if r.Clients != nil {
		r.Clients.reset(locked)
	}
	if locked {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	h.Reset()
	var hs []*hdrhistogram.Histogram
	var threads []threadTimes // one per client of a parallel run
	if len(r.Parallel) > 0 {
		hs = make([]*hdrhistogram.Histogram, len(r.Parallel))
		hs[0] = h
		for i := 1; i < len(hs); i++ {
			hs[i] = NewLatencyHistogram()
		}
		if locked {
			threads = make([]threadTimes, len(r.Parallel))
		}
	}
	var clock threadClock
	var clockErr error
	fanned := r.Parallel != nil || r.Clients != nil
	if locked && (r.Parallel == nil || r.Start != nil || r.Finish != nil) {
		clockErr = clock.open()
		defer clock.close()
	}
	// serial is the coordinating thread's time in the Start and Finish of
	// a run whose operations its clients do: the clients do not run then,
	// so each client's share of that wall time is what the coordinator
	// did in it (its CPU, its wait for one), not time they were blocked.
	var serial threadTimes
	timeSerial := func(f func() error) error {
		if !fanned || !locked || clockErr != nil {
			return f()
		}
		c0, q0, err0 := clock.read()
		err := f()
		c1, q1, err1 := clock.read()
		serial.cpu, serial.runQueue = serial.cpu+c1-c0, serial.runQueue+q1-q0
		serial.err = errors.Join(serial.err, err0, err1)
		return err
	}
	if r.Start != nil && o.Continued && !o.Carried {
		// A later slice of a run: what Start makes, untimed.
		if err := r.Start(); err != nil {
			return Sample{}, fmt.Errorf("start: %w", err)
		}
	}
	var before, after runtime.MemStats
	if !r.Uncollected {
		runtime.GC()
	}
	if o.Probe != nil {
		o.Probe.Start()
	}
	runtime.ReadMemStats(&before)
	if r.Timer != nil {
		var c *threadClock
		if locked && clockErr == nil {
			c = &clock
		}
		r.Timer.reset(c, true)
	}
	cpu0, cpuErr := processCPU()
	var self0, self1 threadTimes
	if locked && clockErr == nil {
		self0.cpu, self0.runQueue, self0.err = clock.read()
	}
	start := time.Now()
	countOn()
	var ols *OpenLoopStats // allocated for an open-loop run only: a closed one allocates nothing here
	if o.OpenLoop != nil {
		ols = new(OpenLoopStats)
	}
	done, err := timedRegion(r, first, n, h, hs, threads, start, o, timeSerial, ols)
	if r.Timer != nil && r.Timer.endCount() {
		countDump() // a pause stopped the count
	} else {
		countOff()
	}
	if r.Timer != nil {
		// A run that ended paused: its last pause ends where the clock
		// does, not after the readings below (the memory statistics, the
		// probe), which would count as paused and come off elapsed.
		r.Timer.Start()
	}
	elapsed := time.Since(start)
	if locked && clockErr == nil {
		self1.cpu, self1.runQueue, self1.err = clock.read()
	}
	cpu1, cpuErr1 := processCPU()
	runtime.ReadMemStats(&after)
	if o.Probe != nil {
		o.Probe.Stop()
	}
	var paused time.Duration
	var pausedThread threadTimes // the timing thread's times while paused
	if r.Timer != nil {
		paused = r.Timer.Paused()
		pausedThread = threadTimes{cpu: r.Timer.pausedCPU, runQueue: r.Timer.pausedRunQueue, err: r.Timer.clockErr}
		r.Timer.clock = nil
	}
	if err == nil && r.Finish != nil && o.Continues && !o.Carries {
		// An earlier slice of a run: its last slice times Finish.
		if err = r.Finish(); err != nil {
			err = fmt.Errorf("finish: %w", err)
		}
	}
	if err != nil {
		return Sample{}, err
	}
	s := Sample{
		N:          done,
		Elapsed:    elapsed - paused,
		Bytes:      after.TotalAlloc - before.TotalAlloc,
		Allocs:     after.Mallocs - before.Mallocs,
		BytesPerOp: r.BytesPerOp,
	}
	switch {
	case locked && r.Clients != nil:
		// The clients' threads did the work; the coordinating goroutine
		// waited for them, and its CPU is the runner's background, but
		// for the Start and Finish it did alone.
		threads = withSerial(r.Clients.times, serial)
		if err := errors.Join(clockErr, self0.err, self1.err, pausedThread.err); err != nil {
			threads = []threadTimes{{err: err}}
		}
	case locked && r.Parallel != nil:
		threads = withSerial(threads, serial)
		if clockErr != nil {
			threads = []threadTimes{{err: clockErr}}
		}
	case locked && r.Parallel == nil:
		threads = []threadTimes{{cpu: self1.cpu - self0.cpu - pausedThread.cpu,
			runQueue: self1.runQueue - self0.runQueue - pausedThread.runQueue,
			err:      errors.Join(clockErr, self0.err, self1.err, pausedThread.err)}}
	}
	switch {
	case !locked:
		s.Why = "the timing goroutine was not locked to a thread (free thread)"
	case cpuErr != nil || cpuErr1 != nil:
		s.Why = errors.Join(cpuErr, cpuErr1).Error()
	default:
		// The paused regions' CPU was the timing thread's: off the
		// process's too, so that it is not background. The serial CPU
		// is in every client's times but was spent once.
		process := cpu1 - cpu0 - pausedThread.cpu
		if fanned && len(threads) > 1 {
			process += time.Duration(len(threads)-1) * max(serial.cpu, 0)
		}
		s.divide(elapsed-paused, threads, process)
	}
	if r.Batch == nil {
		for _, o := range hs[min(1, len(hs)):] {
			h.Merge(o)
		}
		s.Latency = h
	}
	if r.Metrics != nil {
		s.Metrics = r.Metrics()
	}
	s.OpenLoop = ols
	return s, nil
}

// withSerial returns the clients' thread times, each with the serial
// times of the coordinating thread added: the clients' shares of the wall
// time they did not run in.
func withSerial(clients []threadTimes, serial threadTimes) []threadTimes {
	out := make([]threadTimes, len(clients))
	for i, t := range clients {
		out[i] = threadTimes{cpu: t.cpu + serial.cpu, runQueue: t.runQueue + serial.runQueue,
			err: errors.Join(t.err, serial.err)}
	}
	return out
}

// divide sets the sample's thread times from its timing threads' readings
// over the timed wall time (paused regions already taken off both; see
// splitThread) and the process's CPU time over the run, process: the means
// over the threads, with blocked the rest so that the three add up to
// s.Elapsed exactly.
func (s *Sample) divide(wall time.Duration, threads []threadTimes, process time.Duration) {
	var cpu, rq, used time.Duration
	for _, t := range threads {
		if t.err != nil {
			s.Why = t.err.Error()
			return
		}
		c, q, _ := splitThread(wall, t)
		cpu, rq, used = cpu+c, rq+q, used+max(t.cpu, 0)
	}
	w := time.Duration(len(threads))
	s.OnCPU, s.RunQueue = cpu/w, rq/w
	if s.OnCPU+s.RunQueue > s.Elapsed { // rounding of the means
		s.RunQueue = max(s.Elapsed-s.OnCPU, 0)
		s.OnCPU = s.Elapsed - s.RunQueue
	}
	s.Blocked = s.Elapsed - s.OnCPU - s.RunQueue
	s.BackgroundCPU = max(process-used, 0)
	s.ThreadKnown = true
}

// Callgrind's client requests (valgrind/callgrind.h): a tool's requests
// begin at its two letters, here 'C' and 'T', in the top bytes.
const (
	callgrindDumpStats     = 'C'<<24 | 'T'<<16
	callgrindToggleCollect = callgrindDumpStats + 2
)

// countOn and countOff bracket the timed region of a run (timedRegion).
// Under Valgrind's callgrind started with --collect-atstart=no (--measure
// instructions: the launcher) countOn turns the thread's counting of
// instructions on, and countOff turns it off and writes the count to a
// file of its own, one per run; on a CPU their requests do nothing. The
// caller's goroutine is locked to its thread, whose count that is. They
// are calls of their own rather than a function wrapping the region in a
// closure, which would allocate between the run's two memory readings.
//
//go:noinline
func countOn() { callgrindRequest(callgrindToggleCollect) }

// countOff: see countOn.
//
//go:noinline
func countOff() {
	callgrindRequest(callgrindToggleCollect)
	callgrindRequest(callgrindDumpStats)
}

// countPause turns the thread's count off in a pause of the run's Timer, and
// on again at its end; countDump writes out the count of a timed region
// that ended paused (its count already off).
//
//go:noinline
func countPause() { callgrindRequest(callgrindToggleCollect) }

// countDump: see countPause.
//
//go:noinline
func countDump() { callgrindRequest(callgrindDumpStats) }

// timedRegion runs the timed region of MeasureProbed: r's Start (unless a
// later slice), its operations, and its Finish (unless an earlier slice).
// It returns the operations done (an open-loop run's arrivals, done or
// skipped), and sets *ols for an open-loop run.
func timedRegion(r Run, first, n int, h *hdrhistogram.Histogram, hs []*hdrhistogram.Histogram,
	threads []threadTimes, start time.Time, o Options, timeSerial func(func() error) error,
	ols *OpenLoopStats) (int, error) {
	var err error
	done := n
	if r.Start != nil && !o.Continued {
		if err = timeSerial(r.Start); err != nil {
			err = fmt.Errorf("start: %w", err)
		}
	}
	switch {
	case err != nil:
	case r.Batch != nil:
		err = r.Batch(first, n)
	case o.OpenLoop != nil && (r.Op != nil || r.Parallel != nil):
		var deadline time.Time
		if r.Duration > 0 {
			deadline = start.Add(r.Duration)
		}
		ops, inline := r.Parallel, false
		if ops == nil {
			ops, inline = []func(int) error{r.Op}, true
		}
		done, *ols, err = runOpenLoop(ops, first, n, h, threads, deadline, o.OpenLoop, inline)
		if err == nil && done == 0 {
			err = fmt.Errorf("no operation arrived within %v", r.Duration)
		}
	case r.Parallel != nil && r.Duration > 0:
		done, err = runParallelFor(r.Parallel, first, n, hs, threads, start.Add(r.Duration))
		if err == nil && done == 0 {
			err = fmt.Errorf("no operation finished within %v", r.Duration)
		}
	case r.Parallel != nil:
		err = runParallel(r.Parallel, first, n, hs, threads)
	case r.Op != nil:
		err = sequential(r.Op, first, n, h, r.Timer)
	default:
		err = errors.New("run has no operations")
	}
	if err == nil && r.Finish != nil && !o.Continues {
		if err = timeSerial(r.Finish); err != nil {
			err = fmt.Errorf("finish: %w", err)
		}
	}
	return done, err
}

// sequential is the loop of a plain run; it adds nothing to an unsampled
// operation but a comparison. The latency of a sampled operation excludes
// what it paused on t (which may be nil).
func sequential(op func(int) error, first, n int, h *hdrhistogram.Histogram, t *Timer) error {
	// The generator lives on the stack: a run's timed region allocates
	// nothing of the harness's own (a heap one was charged to the run).
	var src rand.PCG
	src.Seed(uint64(n), SampleGap)
	end := first + n
	next := first + below(&src, min(SampleGap, n)) // at least one sample per run
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
		next = i + 1 + below(&src, 2*SampleGap-1)
	}
	return nil
}

// below draws a number in [0, m) from src by the multiply-and-shift
// mapping (the high word of a 64x64-bit product), called on the concrete
// generator so that it stays on the caller's stack.
func below(src *rand.PCG, m int) int {
	hi, _ := bits.Mul64(src.Uint64(), uint64(m))
	return int(hi)
}

// runParallel runs ops [first, first+n) on one goroutine per function in
// ops, each taking the next number from a shared counter; hs, when set,
// holds one histogram per goroutine. The first error stops every goroutine.
//
// threads, when not nil, holds one reading per goroutine: each locks itself
// to its thread and reads that thread's clock when it starts and when it
// ends.
func runParallel(ops []func(int) error, first, n int, hs []*hdrhistogram.Histogram, threads []threadTimes) error {
	_, err := runParallelFor(ops, first, n, hs, threads, time.Time{})
	return err
}

// runParallelFor is runParallel that, when deadline is set, also stops
// claiming operations once it has passed; it returns the operations done.
func runParallelFor(ops []func(int) error, first, n int, hs []*hdrhistogram.Histogram, threads []threadTimes,
	deadline time.Time) (int, error) {
	done, err := runParallelClients(ops, first, n, hs, threads, deadline)
	total := 0
	for _, d := range done {
		total += d
	}
	return total, err
}

// runParallelClients is runParallelFor returning each client's operations
// done. The one word the clients write per operation is the claim counter,
// as the published concurrent loops' one atomic counter
// (go-sql-driver/sql-benchmark's remain): each client counts what it did
// in a variable of its own, written to done once, when it returns.
func runParallelClients(ops []func(int) error, first, n int, hs []*hdrhistogram.Histogram, threads []threadTimes,
	deadline time.Time) ([]int, error) {
	var (
		claim  atomic.Int64
		failed atomic.Bool
		wg     sync.WaitGroup
		errs   = make([]error, len(ops))
		done   = make([]int, len(ops))
	)
	claim.Store(int64(first))
	end := int64(first + n)
	start := time.Now()
	for w, op := range ops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if threads != nil {
				defer clockThread(&threads[w])()
			}
			rng := rand.New(rand.NewPCG(uint64(n)+uint64(w)<<32, SampleGap))
			sample := rng.IntN(SampleGap)
			k := 0 // this client's operations done
			defer func() { done[w] = k }()
			for ; !failed.Load(); k++ {
				if !deadline.IsZero() && !time.Now().Before(deadline) {
					return
				}
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
	return done, errors.Join(errs...)
}
