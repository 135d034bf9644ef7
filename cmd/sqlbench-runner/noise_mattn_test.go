//go:build sqlbench_mattn

package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/runner"
)

// TestMattnRunRecordsItsNoise runs mattn's SimpleQuery (the 100-row
// table read whole: the memory-heavy probe of docs/methodology.md) in the
// runner with the real driver, three runs of 3,000 queries, and reads each
// run's noise from its result line: the collector ran in every run, the
// settled heap faulted pages back in, and the machine's steal is a share.
//
//	go test -tags sqlbench_mattn -run TestMattnRunRecordsItsNoise ./cmd/sqlbench-runner
func TestMattnRunRecordsItsNoise(t *testing.T) {
	db := filepath.Join(t.TempDir(), "noise.db")
	var in strings.Builder
	for run := 1; run <= 3; run++ {
		req := protocol.Request{Verb: protocol.VerbRun, Target: "mattn", Workload: "SimpleQuery", DB: "sqlite",
			Location: protocol.Location{DSN: db},
			Scope:    "c0", Name: "SimpleQuery/db=sqlite/driver=mattn/api=sql", N: 3000, Warmup: 300, Run: run}
		in.WriteString(req.Encode() + "\n")
	}
	var out, log bytes.Buffer
	s := &runner.Loop{In: strings.NewReader(in.String()), Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(strings.NewReader(out.String()), "runner")
	runs := 0
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		runs++
		vals := map[string]float64{}
		for _, v := range res.Values {
			vals[v.Unit] = v.Value
			if v.OrigUnit != "" {
				vals[v.OrigUnit] = v.OrigValue
			}
		}
		for _, u := range []string{runner.StealUnit, runner.MinorFaultsUnit, runner.MajorFaultsUnit,
			runner.PreemptedUnit, runner.MigrationsUnit, runner.GCUnit, runner.GCCPUUnit} {
			if _, ok := vals[u]; !ok {
				t.Errorf("run %d: no %s: %v", runs, u, vals)
			}
		}
		if cycles := vals[runner.GCUnit] * float64(res.Iters); cycles < 1 {
			t.Errorf("run %d: %.0f collections in 3,000 reads of 100 rows", runs, cycles)
		}
		if faults := vals[runner.MinorFaultsUnit] * float64(res.Iters); faults < 1 {
			t.Errorf("run %d: %.0f page faults from a settled heap", runs, faults)
		}
		if st := vals[runner.StealUnit]; st < 0 || st > 100 {
			t.Errorf("run %d: steal %v%%", runs, st)
		}
	}
	if runs != 3 {
		t.Fatalf("%d result lines, want 3:\n%s\n%s", runs, out.String(), log.String())
	}
}
