package runner

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
	"github.com/sqlbench/sqlbench/internal/procs"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

// noiseSink keeps the allocations of the noise workload reachable until
// the next operation, so that the compiler cannot drop them.
var noiseSink []byte

// init registers a workload that allocates 64 KiB an operation and
// touches every page of it: enough, over a run, for the collector to run
// and the heap to fault fresh pages in.
func init() {
	bench.RegisterHandleOpener("noise-probe", func(context.Context, bench.Config) (bench.Handle, error) {
		return probeHandle{}, nil
	})
	bench.RegisterWorkload(bench.Workload{
		Name: "NoiseProbe", Family: "test", Ops: 1, Unit: "ops", Only: []bench.DB{floor.Loopback},
		Describe: func(bench.Dialect) string { return "allocates and touches 64 KiB" },
		Setup:    func(bench.Env) error { return nil },
		Begin: func(bench.Env) (bench.Run, error) {
			return bench.Run{Op: func(int) error {
				b := make([]byte, 64<<10)
				for i := 0; i < len(b); i += 4096 {
					b[i] = 1
				}
				noiseSink = b
				return nil
			}}, nil
		},
		Teardown: func(bench.Env) error { return nil },
	})
}

// runNoiseProbe runs the noise workload once (n operations) and returns
// its result line's values by unit.
func runNoiseProbe(t *testing.T, n int, free bool) map[string]float64 {
	t.Helper()
	req := protocol.Request{Verb: protocol.VerbRun, Target: "noise-probe", Workload: "NoiseProbe",
		DB: string(floor.Loopback), Scope: "c0", Name: "NoiseProbe/db=loopback", N: n, FreeThread: free}
	var out, log bytes.Buffer
	s := &Loop{In: strings.NewReader(req.Encode() + "\n"), Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(strings.NewReader(out.String()), "runner")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			vals := map[string]float64{}
			for _, v := range res.Values {
				if v.OrigUnit != "" { // as written: ns, not seconds
					v.Unit, v.Value = v.OrigUnit, v.OrigValue
				}
				vals[v.Unit] = v.Value
			}
			return vals
		}
	}
	t.Fatalf("no result line:\n%s\n%s", out.String(), log.String())
	return nil
}

// TestRunRecordsItsNoise: a run's result line carries what went on
// around it, per operation: the machine's steal share, the process's page
// faults, the timing thread's preemptions and migrations, the collector's
// cycles and CPU. A run allocating 64 KiB an operation from a settled heap
// has had cycles and fresh pages; a free thread's run leaves the thread's
// counts out.
func TestRunRecordsItsNoise(t *testing.T) {
	if !procs.Mounted() {
		t.Skip("no /proc")
	}
	const n = 2000 // 128 MiB allocated
	vals := runNoiseProbe(t, n, false)
	units := []string{StealUnit, MinorFaultsUnit, MajorFaultsUnit, PreemptedUnit, MigrationsUnit, GCUnit, GCCPUUnit}
	for _, u := range units {
		v, ok := vals[u]
		if !ok {
			t.Errorf("no %s on the result line: %v", u, vals)
			continue
		}
		if v < 0 || math.IsNaN(v) {
			t.Errorf("%s = %v", u, v)
		}
	}
	if v := vals[StealUnit]; v > 100 {
		t.Errorf("steal %v%%", v)
	}
	if cycles := vals[GCUnit] * n; cycles < 1 {
		t.Errorf("%.1f collections in a run allocating 128 MiB", cycles)
	}
	if faults := vals[MinorFaultsUnit] * n; faults < 1 {
		t.Errorf("%.1f page faults in a run allocating 128 MiB from a settled heap", faults)
	}
	free := runNoiseProbe(t, n, true)
	if _, ok := free[GCUnit]; !ok {
		t.Errorf("a free thread's run has no %s: %v", GCUnit, free)
	}
	for _, u := range []string{PreemptedUnit, MigrationsUnit} {
		if _, ok := free[u]; ok {
			t.Errorf("a free thread's run has %s, a count of whichever thread read it", u)
		}
	}
}

// TestNoiseValues: the units are differences of two readings per
// operation, the steal a share of the machine's CPU time in the interval;
// a part that could not be read leaves its units out.
func TestNoiseValues(t *testing.T) {
	a := noiseReading{cpuTotal: 1000, steal: 10, minor: 100, major: 1,
		thread: procs.ThreadSched{Migrations: 2, Involuntary: 5}, gcCycles: 7, gcCPU: 0.5}
	b := noiseReading{cpuTotal: 1200, steal: 50, minor: 300, major: 1,
		thread: procs.ThreadSched{Migrations: 4, Involuntary: 25}, gcCycles: 9, gcCPU: 0.5001}
	got := map[string]float64{}
	for _, v := range noiseValues(a, b, 100) {
		got[v.Unit] = v.Value
	}
	want := map[string]float64{StealUnit: 20, MinorFaultsUnit: 2, MajorFaultsUnit: 0, PreemptedUnit: 0.2,
		MigrationsUnit: 0.02, GCUnit: 0.02, GCCPUUnit: 1000}
	for u, w := range want {
		if g, ok := got[u]; !ok || math.Abs(g-w) > 1e-6*math.Max(1, w) {
			t.Errorf("%s = %v (present %v), want %v", u, g, ok, w)
		}
	}
	b.cpuErr, b.threadErr = errors.New("no /proc/stat"), errors.New("not the timing thread")
	for _, v := range noiseValues(a, b, 100) {
		if v.Unit == StealUnit || v.Unit == PreemptedUnit || v.Unit == MigrationsUnit {
			t.Errorf("%s recorded from a reading that failed", v.Unit)
		}
	}
	if vals := noiseValues(a, b, 0); vals != nil {
		t.Errorf("a run of no operations: %v", vals)
	}
}
