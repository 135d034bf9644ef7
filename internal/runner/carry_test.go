package runner

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

// carryCalls records the calls the carry probes' runs make, in order.
type carryCalls struct {
	mu    sync.Mutex
	calls []string
}

func (c *carryCalls) add(s string) func() error {
	return func() error {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.calls = append(c.calls, s)
		return nil
	}
}

func (c *carryCalls) take() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := strings.Join(c.calls, " ")
	c.calls = nil
	return s
}

// The probes' calls: CarryProbe's run carries what Start made between its
// slices (bench.Run.Carry), NoCarryProbe's does not.
var carryProbeCalls, noCarryProbeCalls carryCalls

// init registers the two probes once, so that the test runs again under
// -count.
func init() {
	bench.RegisterHandleOpener("carry-probe",
		func(context.Context, bench.Config) (bench.Handle, error) { return probeHandle{}, nil })
	for _, p := range []struct {
		name  string
		calls *carryCalls
		carry bool
	}{{"CarryProbe", &carryProbeCalls, true}, {"NoCarryProbe", &noCarryProbeCalls, false}} {
		bench.RegisterWorkload(bench.Workload{
			Name: p.name, Family: "test", Ops: 6, Unit: "ops", Only: []bench.DB{floor.Loopback},
			Describe: func(bench.Dialect) string { return "records its run's calls" },
			Setup:    func(bench.Env) error { return nil },
			Begin: func(bench.Env) (bench.Run, error) {
				c := p.calls
				_ = c.add("begin")()
				op := c.add("op")
				return bench.Run{Start: c.add("start"), Op: func(int) error { return op() }, Finish: c.add("finish"),
					End: c.add("end"), Carry: p.carry}, nil
			},
			Teardown: func(bench.Env) error { return nil },
		})
	}
}

// TestACarriedRunStartsOnceAndFinishesOnceOverItsSlices: a run whose
// Run.Carry is set is begun, started, finished and ended once over its
// slices, the runner holding it between them (a statement prepared on a
// pool stays prepared on every connection, as in the published program's
// one run); another run of the cell ends the held one before it begins; a
// run without Carry is started and finished again around every slice.
func TestACarriedRunStartsOnceAndFinishesOnceOverItsSlices(t *testing.T) {
	reqs := func(workload string, steps ...[2]int) string {
		var b strings.Builder
		for _, st := range steps {
			req := protocol.Request{Verb: protocol.VerbRun, Target: "carry-probe", Workload: workload,
				DB:    string(floor.Loopback),
				Scope: "c0", Name: workload + "/db=loopback", N: 2, Run: st[0], Slice: st[1], Slices: 3}
			b.WriteString(req.Encode() + "\n")
		}
		return b.String()
	}
	for _, c := range []struct {
		workload string
		calls    *carryCalls
		steps    [][2]int
		want     string
	}{
		{"CarryProbe", &carryProbeCalls, [][2]int{{1, 1}, {1, 2}, {1, 3}},
			"begin start op op op op op op finish end"},
		// Run 2 after the first slice of run 1: run 1 is ended, untimed,
		// before run 2 begins; run 2's slice 3 after its slice 1 (its
		// slice 2 lost) begins again, as without Carry.
		{"CarryProbe", &carryProbeCalls, [][2]int{{1, 1}, {2, 1}, {2, 3}},
			"begin start op op end begin start op op end begin start op op finish end"},
		{"NoCarryProbe", &noCarryProbeCalls, [][2]int{{1, 1}, {1, 2}, {1, 3}},
			"begin start op op finish end begin start op op finish end begin start op op finish end"},
	} {
		c.calls.take()
		var out, log bytes.Buffer
		s := &Loop{In: strings.NewReader(reqs(c.workload, c.steps...)), Out: &out, Log: &log}
		if err := s.Serve(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(out.String(), "--- ok"); n != len(c.steps) {
			t.Fatalf("%s %v: %d of %d runs ok:\n%s\n%s", c.workload, c.steps, n, len(c.steps), out.String(),
				log.String())
		}
		if got := c.calls.take(); got != c.want {
			t.Errorf("%s %v: calls\n  %s\nwant\n  %s", c.workload, c.steps, got, c.want)
		}
	}
}
