package runner

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

type probeHandle struct{}

func (probeHandle) Close() error { return nil }

// The GOMAXPROCS probe's readings: in its setup, and in its operations.
var probeSetupProcs, probeOpProcs atomic.Int64

// init registers the GOMAXPROCS probe once, so that the test runs again
// under -count.
func init() {
	bench.RegisterHandleOpener("cpu-probe",
		func(context.Context, bench.Config) (bench.Handle, error) { return probeHandle{}, nil })
	bench.RegisterWorkload(bench.Workload{
		Name: "GOMAXPROCSProbe", Family: "test", Ops: 1, Unit: "ops", Only: []bench.DB{floor.Loopback},
		Describe: func(bench.Dialect) string { return "records GOMAXPROCS" },
		Setup:    func(bench.Env) error { probeSetupProcs.Store(int64(runtime.GOMAXPROCS(0))); return nil },
		Begin: func(bench.Env) (bench.Run, error) {
			return bench.Run{Op: func(int) error { probeOpProcs.Store(int64(runtime.GOMAXPROCS(0))); return nil }}, nil
		},
		Teardown: func(bench.Env) error { return nil },
	})
}

// TestRunSetsGOMAXPROCS runs a workload that records GOMAXPROCS in its
// setup and its operations: a run request with cpu=3 runs both at 3, and
// the runner's own GOMAXPROCS is back afterwards.
func TestRunSetsGOMAXPROCS(t *testing.T) {
	setup, op := &probeSetupProcs, &probeOpProcs
	setup.Store(0)
	op.Store(0)
	before := runtime.GOMAXPROCS(0)
	req := protocol.Request{Verb: protocol.VerbRun, Target: "cpu-probe", Workload: "GOMAXPROCSProbe",
		DB:    string(floor.Loopback),
		Scope: "c0", Name: "GOMAXPROCSProbe/db=loopback-3", N: 5, CPU: 3}
	if back, err := protocol.ParseRequest(req.Encode()); err != nil || back.CPU != 3 {
		t.Fatalf("cpu did not round-trip: %+v, %v", back, err)
	}
	var out, log bytes.Buffer
	s := &Loop{In: strings.NewReader(req.Encode() + "\n"), Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "BenchmarkGOMAXPROCSProbe/db=loopback-3 5 ") ||
		!strings.Contains(out.String(), "--- ok") {
		t.Fatalf("run failed:\n%s\n%s", out.String(), log.String())
	}
	if setup.Load() != 3 || op.Load() != 3 {
		t.Errorf("GOMAXPROCS in setup %d, in the run %d; want 3", setup.Load(), op.Load())
	}
	if after := runtime.GOMAXPROCS(0); after != before {
		t.Errorf("GOMAXPROCS %d after the run, %d before", after, before)
	}
	if _, err := protocol.ParseRequest(
		fmt.Sprintf("run target=x&workload=W&scope=c&name=N&n=5&warmup=0&cpu=%d", 0)); err == nil {
		t.Error("cpu=0 accepted")
	}
}
