package runner

import (
	"errors"
	"runtime/metrics"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/procs"
)

// Units of what went on around a run that its time includes and sqlbench
// cannot take out of it (docs/methodology.md, "What makes memory-heavy
// cells vary here"), recorded with each run so that a report can say which
// runs it touched. The time the timing thread waited for a CPU is
// RunQueueUnit (timeshare.go).
const (
	// StealUnit is the share of the machine's CPU time, in percent, that
	// the hypervisor gave to other guests during the run.
	StealUnit = "steal-%"
	// MinorFaultsUnit and MajorFaultsUnit are the runner process's page
	// faults per operation: minor ones map a page that needs no reading
	// (a heap page the run touches afresh), major ones read it from disk.
	MinorFaultsUnit = "minor-faults/op"
	MajorFaultsUnit = "major-faults/op"
	// PreemptedUnit is how often per operation the timing thread was
	// switched out while it could still run, and MigrationsUnit how often
	// it moved to another CPU. Not recorded for a free thread or a
	// parallel run (whose operations run on other threads).
	PreemptedUnit  = "preempted/op"
	MigrationsUnit = "migrations/op"
	// GCUnit is the garbage collector's cycles per operation, and GCCPUUnit
	// its CPU time per operation (runtime/metrics' estimate, made at the
	// end of each cycle): the cost of the run's allocations, part of the
	// measured work, recorded because their number per run varies.
	GCUnit    = "gc/op"
	GCCPUUnit = "gc-cpu-ns/op"
)

// gcMetrics are the runtime/metrics read around a run, in noiseReading's
// order.
var gcMetrics = [...]string{"/gc/cycles/total:gc-cycles", "/cpu/classes/gc/total:cpu-seconds"}

// noiseReading is one reading of the counters the noise units are the
// differences of. A part that could not be read keeps its error, and its
// units are left out.
type noiseReading struct {
	cpuTotal, steal float64
	cpuErr          error
	minor, major    uint64
	faultErr        error
	thread          procs.ThreadSched
	threadErr       error
	gcCycles        uint64
	gcCPU           float64
}

// readNoise reads the counters; thread says whether the calling
// goroutine is locked to the run's timing thread, whose counts it then
// reads too.
func readNoise(thread bool, ms *[len(gcMetrics)]metrics.Sample) noiseReading {
	var r noiseReading
	r.cpuTotal, r.steal, r.cpuErr = procs.CPUTotals()
	r.minor, r.major, r.faultErr = procs.SelfFaults()
	if thread {
		r.thread, r.threadErr = procs.SelfThreadSched()
	} else {
		r.threadErr = errors.New("not the timing thread")
	}
	metrics.Read(ms[:])
	if ms[0].Value.Kind() == metrics.KindUint64 {
		r.gcCycles = ms[0].Value.Uint64()
	}
	if ms[1].Value.Kind() == metrics.KindFloat64 {
		r.gcCPU = ms[1].Value.Float64()
	}
	return r
}

// noiseValues returns the noise units of a run of n operations between
// readings a and b.
func noiseValues(a, b noiseReading, n int) []benchfmt.Value {
	if n <= 0 {
		return nil
	}
	per := func(d float64) float64 { return d / float64(n) }
	var vals []benchfmt.Value
	if a.cpuErr == nil && b.cpuErr == nil {
		steal := 0.0
		if d := b.cpuTotal - a.cpuTotal; d > 0 {
			steal = 100 * (b.steal - a.steal) / d
		}
		vals = append(vals, benchfmt.Value{Value: steal, Unit: StealUnit})
	}
	if a.faultErr == nil && b.faultErr == nil {
		vals = append(vals,
			benchfmt.Value{Value: per(float64(b.minor - a.minor)), Unit: MinorFaultsUnit},
			benchfmt.Value{Value: per(float64(b.major - a.major)), Unit: MajorFaultsUnit})
	}
	if a.threadErr == nil && b.threadErr == nil {
		vals = append(vals,
			benchfmt.Value{Value: per(float64(b.thread.Involuntary - a.thread.Involuntary)), Unit: PreemptedUnit},
			benchfmt.Value{Value: per(float64(b.thread.Migrations - a.thread.Migrations)), Unit: MigrationsUnit})
	}
	vals = append(vals,
		benchfmt.Value{Value: per(float64(b.gcCycles - a.gcCycles)), Unit: GCUnit},
		benchfmt.Value{Value: per((b.gcCPU - a.gcCPU) * 1e9), Unit: GCCPUUnit})
	return vals
}

// noiseProbe reads the noise counters around a run's timed region (a
// bench.Probe: outside the run's memory statistics).
type noiseProbe struct {
	thread bool
	ms     [len(gcMetrics)]metrics.Sample
	a, b   noiseReading
}

func newNoiseProbe(thread bool) *noiseProbe {
	p := &noiseProbe{thread: thread}
	for i, name := range gcMetrics {
		p.ms[i].Name = name
	}
	return p
}

func (p *noiseProbe) Start() { p.a = readNoise(p.thread, &p.ms) }
func (p *noiseProbe) Stop()  { p.b = readNoise(p.thread, &p.ms) }

// record adds the run's noise units to s.
func (p *noiseProbe) record(s *bench.Sample) {
	for _, v := range noiseValues(p.a, p.b, s.N) {
		s.Metrics = append(s.Metrics, bench.Metric{Value: v.Value, Unit: v.Unit})
	}
}
