// Package drift measures how fast the machine itself is from moment to
// moment during a session. A virtual machine's CPU slows and speeds up with
// its neighbours on the host, often without any CPU steal showing; every
// cell timed in the same stretch moves with it. Timing one fixed piece of
// pure CPU work on the runner's CPUs before every pass of the schedule
// gives the session's own noise floor: the part of the cells' run-to-run
// spread that no driver caused.
package drift

import (
	"fmt"
	"runtime"
	"time"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/sys/unix"
)

// DefaultWork is the number of loop steps a probe times: about 50 ms on a
// 2020s server core, about as long as a slice of a default run and short
// enough to add 5 s to a session of a hundred passes.
const DefaultWork = 150_000_000

// Probe times a fixed piece of CPU work, on CPUs when they are given.
type Probe struct {
	// CPUs are where the work runs (the runner's CPUs); nil leaves the
	// placement to the scheduler.
	CPUs []int
	// Work is the number of loop steps; 0 means DefaultWork.
	Work int

	sink uint64
}

// Time runs the work once on the probe's CPUs and returns how long it took.
func (p *Probe) Time() (time.Duration, error) {
	type result struct {
		d   time.Duration
		sum uint64
		err error
	}
	ch := make(chan result, 1)
	seed := p.sink | 1
	go func() {
		// The pinned thread is never unlocked: it ends with this
		// goroutine, so no other goroutine inherits its placement.
		runtime.LockOSThread()
		if len(p.CPUs) > 0 {
			var set unix.CPUSet
			for _, c := range p.CPUs {
				set.Set(c)
			}
			if err := unix.SchedSetaffinity(0, &set); err != nil {
				ch <- result{err: fmt.Errorf("drift probe: pin to CPUs %v: %w", p.CPUs, err)}
				return
			}
		}
		n := p.Work
		if n <= 0 {
			n = DefaultWork
		}
		start := time.Now()
		sum := spin(seed, n)
		ch <- result{d: time.Since(start), sum: sum}
	}()
	r := <-ch
	p.sink += r.sum
	return r.d, r.err
}

// spin is the probe's work: n steps of a multiply-xorshift chain that the
// compiler cannot shorten, touching no memory.
func spin(x uint64, n int) uint64 {
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> 29
	}
	return x
}

// Floor is what the probes of one session say about the machine.
type Floor struct {
	// Passes is the number of probes.
	Passes int
	// PassCV is the coefficient of variation of the probe's time over the
	// passes: how much the machine's speed moved from pass to pass.
	PassCV float64
	// RunCV is the coefficient of variation over the runs of the mean probe
	// time of each run's passes: the spread the machine alone gives a run
	// made of slices in those passes, the floor under the cells' spread.
	RunCV float64
}

// Recorder times the probe once per pass of a schedule whose pass p times
// run p%Count+1 (session.Schedule) and keeps the times.
type Recorder struct {
	Probe Probe
	// Count is the schedule's runs per cell.
	Count int

	times map[int]time.Duration
	err   error
}

// Pass times the probe for pass p. After an error it times nothing more
// (Floor reports the error).
func (r *Recorder) Pass(p int) {
	if r.err != nil {
		return
	}
	d, err := r.Probe.Time()
	if err != nil {
		r.err = err
		return
	}
	if r.times == nil {
		r.times = map[int]time.Duration{}
	}
	r.times[p] = d
}

// Floor computes the floor from the passes timed so far. It needs at least
// two runs with a timed pass each.
func (r *Recorder) Floor() (Floor, error) {
	if r.err != nil {
		return Floor{}, r.err
	}
	if r.Count < 2 {
		return Floor{}, fmt.Errorf("drift: %d run(s) per cell, too few for a spread", r.Count)
	}
	var all []float64
	sums := make([]float64, r.Count)
	ns := make([]float64, r.Count)
	for p, t := range r.times {
		all = append(all, float64(t))
		sums[p%r.Count] += float64(t)
		ns[p%r.Count]++
	}
	var runs []float64
	for i := range sums {
		if ns[i] > 0 {
			runs = append(runs, sums[i]/ns[i])
		}
	}
	if len(runs) < 2 {
		return Floor{}, fmt.Errorf("drift: %d probes over %d runs, too few for a spread", len(all), len(runs))
	}
	return Floor{Passes: len(all), PassCV: cv(all), RunCV: cv(runs)}, nil
}

// Fact is the session's probe as a results-file fact: key "drift" and
// the median time of the probe over the passes timed so far, with the
// work and the pass count ("52.31 ms (150000000 steps, median of 30
// passes)"). Two sessions' medians say how much faster or slower the CPU
// itself ran in one than in the other. ok is false before any pass.
func (r *Recorder) Fact() (key, value string, ok bool) {
	if len(r.times) == 0 {
		return "", "", false
	}
	var all []float64
	for _, t := range r.times {
		all = append(all, float64(t))
	}
	work := r.Probe.Work
	if work == 0 {
		work = DefaultWork
	}
	med := stats.Sample{Xs: all}.Quantile(0.5)
	return "drift", fmt.Sprintf("%.2f ms (%d steps, median of %d passes)", med/1e6, work, len(all)), true
}

// ParseFact returns the median probe time a "drift" fact holds, in
// milliseconds for DefaultWork steps (a probe of other work, as a smoke
// session's, scaled to it by the steps the fact names), and whether it
// holds one.
func ParseFact(v string) (ms float64, ok bool) {
	var steps int
	n, _ := fmt.Sscanf(v, "%g ms (%d steps", &ms, &steps)
	if n < 1 || !(ms > 0) {
		return 0, false
	}
	if n == 2 && steps > 0 {
		ms *= float64(DefaultWork) / float64(steps)
	}
	return ms, true
}

func cv(xs []float64) float64 {
	s := stats.Sample{Xs: xs}
	return s.StdDev() / s.Mean()
}
