package runner

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/unit"
)

// registerSpinProbes registers a target of no database and one workload
// per way a run times its operations, each operation doing nothing: what
// a run of them measures beyond the harness is the spin.
var registerSpinProbes = sync.OnceFunc(func() {
	bench.RegisterHandleOpener("spin-probe",
		func(context.Context, bench.Config) (bench.Handle, error) { return probeHandle{}, nil })
	nothing := func(int) error { return nil }
	for name, begin := range map[string]func(bench.Env) (bench.Run, error){
		"SpinProbeOp": func(bench.Env) (bench.Run, error) { return bench.Run{Op: nothing}, nil },
		"SpinProbeParallel": func(bench.Env) (bench.Run, error) {
			return bench.Run{Parallel: []func(int) error{nothing, nothing}}, nil
		},
		"SpinProbeBatch": func(bench.Env) (bench.Run, error) {
			return bench.Run{Batch: func(first, n int) error { return nil }}, nil
		},
		// Each operation starts the clock and stops it again, and returns
		// with it stopped: the spin after it must still be timed.
		"SpinProbePaused": func(bench.Env) (bench.Run, error) {
			t := &bench.Timer{}
			return bench.Run{Timer: t, Op: func(int) error { t.Start(); t.Stop(); return nil }}, nil
		},
	} {
		bench.RegisterWorkload(bench.Workload{
			Name: name, Family: "test", Ops: 1, Unit: "ops", Only: []bench.DB{floor.Loopback},
			Describe: func(bench.Dialect) string { return "does nothing" },
			Setup:    func(bench.Env) error { return nil },
			Begin:    begin,
			Teardown: func(bench.Env) error { return nil },
		})
	}
})

// runProbe runs n operations of workload on the spin probe with a spin of
// d (none when 0) and returns the result line's values by unit, as
// written (ns/op, not sec/op).
func runProbe(t *testing.T, workload string, n int, d time.Duration) map[string]float64 {
	t.Helper()
	registerSpinProbes()
	req := protocol.Request{Verb: protocol.VerbRun, Target: "spin-probe", Workload: workload,
		DB:    string(floor.Loopback),
		Scope: "c0", Name: workload + "/db=loopback", N: n, Warmup: n / 10, Spin: d}
	var out, log bytes.Buffer
	s := &Loop{In: strings.NewReader(req.Encode() + "\n"), Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "--- ok") {
		t.Fatalf("%s: run failed:\n%s\n%s", workload, out.String(), log.String())
	}
	r := benchfmt.NewReader(strings.NewReader(out.String()), "reply")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			vals := map[string]float64{}
			for _, v := range res.Values {
				unit, val := v.Unit, v.Value
				if v.OrigUnit != "" {
					unit, val = v.OrigUnit, v.OrigValue
				}
				vals[unit] = val
			}
			return vals
		}
	}
	t.Fatalf("%s: no result line in:\n%s", workload, out.String())
	return nil
}

// TestSpinSlowsEveryOperationByItsDelay runs each way of timing operations
// with a spin of 50 µs after each: every operation takes at least the
// delay (a parallel run's two clients share the wall time), the spin the
// runner reports per operation is at least the delay and not more than
// the operation took, and beyond the delay it overshoots by no more than
// the time the thread waited in the run queue (a preemption in the middle
// of a spin) and a tenth of the delay. Without a spin there is no
// spin-ns/op.
func TestSpinSlowsEveryOperationByItsDelay(t *testing.T) {
	const d = 50 * time.Microsecond
	const n = 1000
	for _, c := range []struct {
		workload string
		clients  float64
	}{{"SpinProbeOp", 1}, {"SpinProbeParallel", 2}, {"SpinProbeBatch", 1}, {"SpinProbePaused", 1}} {
		t.Run(c.workload, func(t *testing.T) {
			plain := runProbe(t, c.workload, n, 0)
			if _, ok := plain[unit.Spin]; ok {
				t.Errorf("a run without a spin reports %s", unit.Spin)
			}
			got := runProbe(t, c.workload, n, d)
			ns, spin := got["ns/op"], got[unit.Spin]
			want := float64(d.Nanoseconds())
			if ns < want/c.clients {
				t.Errorf("%.0f ns/op with a spin of %v after each operation (%v clients); want at least %.0f", ns, d,
					c.clients, want/c.clients)
			}
			if spin < want {
				t.Errorf("%s %.0f, below the delay %.0f", unit.Spin, spin, want)
			}
			if spin > ns*c.clients {
				t.Errorf("%s %.0f, more than the operations took (%.0f ns/op, %v clients)", unit.Spin, spin, ns,
					c.clients)
			}
			if runq, ok := got[unit.RunQueue]; ok && c.clients == 1 {
				if spin-want > runq+want/10 {
					t.Errorf("%s %.0f overshoots the delay %.0f by more than the run queue's %.0f ns/op and a tenth "+
						"of the delay", unit.Spin, spin, want, runq)
				}
			} else if c.clients == 1 {
				t.Logf("no %s (the thread's time is not divided here): the overshoot is not checked", unit.RunQueue)
			}
			t.Logf("%s: %.0f ns/op without a spin, %.0f with; %s %.0f", c.workload, plain["ns/op"], ns, unit.Spin, spin)
		})
	}
}

// TestSpinRoundTripsAndRefusesNonsense: spin= reaches the runner as sent,
// and a spin that is not a positive count of nanoseconds fails the request.
func TestSpinRoundTripsAndRefusesNonsense(t *testing.T) {
	req := protocol.Request{Verb: protocol.VerbRun, Target: "x", Workload: "W", Scope: "c", Name: "N", N: 5,
		Spin: 1500 * time.Nanosecond}
	if back, err := protocol.ParseRequest(req.Encode()); err != nil || back.Spin != req.Spin {
		t.Fatalf("spin did not round-trip: %+v, %v", back, err)
	}
	for _, bad := range []string{"0", "-5", "1us", "x"} {
		if _, err := protocol.ParseRequest("run target=x&workload=W&scope=c&name=N&n=5&warmup=0&spin=" +
			bad); err == nil {
			t.Errorf("spin=%s accepted", bad)
		}
	}
}
