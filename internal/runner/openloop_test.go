package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/floor"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/unit"
)

// serveOne serves one run request of the spin probes and returns the
// reply and the log.
func serveOne(t *testing.T, req protocol.Request) (string, string) {
	t.Helper()
	registerSpinProbes()
	var out, log bytes.Buffer
	s := &Loop{In: strings.NewReader(req.Encode() + "\n"), Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out.String(), log.String()
}

// TestOpenLoopRunReportsItsSchedule: a run request with a rate runs
// open-loop and its result line carries the schedule's units; with a
// progress interval its intervals come before the result, one a line; a
// run whose operations are one batch is refused, naming why.
func TestOpenLoopRunReportsItsSchedule(t *testing.T) {
	const n = 150
	req := protocol.Request{Verb: protocol.VerbRun, Target: "spin-probe", Workload: "SpinProbeParallel",
		DB: string(floor.Loopback), Scope: "c0", Name: "SpinProbeParallel/db=loopback", N: n,
		Rate: 500, LatencyLimit: time.Second, Progress: 100 * time.Millisecond}
	out, log := serveOne(t, req)
	if !strings.Contains(out, "--- ok") {
		t.Fatalf("run failed:\n%s\n%s", out, log)
	}
	var progress int
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, protocol.ProgressKey+": "+req.Name+" t=") {
			progress++
		}
	}
	if progress < 2 {
		t.Errorf("%d progress lines in a ~300 ms run at 100 ms, want 2 or more:\n%s", progress, out)
	}
	var result string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Benchmark") {
			result = l
		}
	}
	for _, u := range []string{unit.Lag, unit.Late, unit.Skipped, unit.DoneRate, unit.P99} {
		if !strings.Contains(result, " "+u) {
			t.Errorf("result line has no %s: %s", u, result)
		}
	}
	if !strings.Contains(result, " 0 late 0 skipped") {
		t.Errorf("operations that do nothing were late or skipped under a 1 s limit: %s", result)
	}
	req.Workload, req.Name = "SpinProbeBatch", "SpinProbeBatch/db=loopback"
	out, _ = serveOne(t, req)
	if !strings.Contains(out, "--- FAIL") || !strings.Contains(out, "open-loop run needs operations timed one by one") {
		t.Errorf("a batch run under a rate: %s", out)
	}
}
