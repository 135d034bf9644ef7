package runner

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

// replayEarlierOp is how long the earlier probe's operation takes: a run
// of the later probe that timed the replay would take at least that.
const replayEarlierOp = 30 * time.Millisecond

// forcedGCs returns the collections forced so far (runtime.GC,
// debug.FreeOSMemory), which the pacer's own leave out.
func forcedGCs() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// replayGCs is the forced-collection count where the probes last looked.
var replayGCs uint64

// init registers two workloads on the fresh probe target (fresh_test.go),
// both FreshDB: ReplayProbeLater follows ReplayProbeEarlier, as the
// published go-sqlite-bench runs its 200 KB test after its 50 and 100 KB
// ones in one process. Later's Setup records "settled" when a collection
// was forced since Earlier's operation, its operation "collected" when one
// was since its Setup.
func init() {
	look := func(name string) func() {
		return func() {
			if n := forcedGCs(); n != replayGCs {
				freshCalls.add(name)()
			}
			replayGCs = forcedGCs()
		}
	}
	reg := func(name string, follows []string, setup func(), op func()) {
		bench.RegisterWorkload(bench.Workload{
			Name: name, Family: "test", Ops: 1, Unit: "ops", Only: []bench.DB{bench.SQLite}, FreshDB: true,
			Follows:  follows,
			Describe: func(bench.Dialect) string { return "records its replays" },
			Setup:    func(bench.Env) error { setup(); return nil },
			Begin: func(bench.Env) (bench.Run, error) {
				return bench.Run{Op: func(int) error { op(); return nil }}, nil
			},
			Teardown: func(bench.Env) error { return nil },
		})
	}
	reg("ReplayProbeEarlier", nil, func() { freshCalls.add("earlier:setup")() }, func() {
		time.Sleep(replayEarlierOp)
		freshCalls.add("earlier:op")()
		replayGCs = forcedGCs()
	})
	reg("ReplayProbeLater", []string{"ReplayProbeEarlier"},
		func() { look("settled")(); freshCalls.add("later:setup")() },
		func() { look("collected")(); freshCalls.add("later:op")() })
}

// TestARunFollowsItsProgramsEarlierTests: before each run of a workload
// that follows others (bench.Workload.Follows), the runner runs each of
// them once, untimed, on a new file at the cell's path (removed before the
// cell opens it again), with no collection between them and the run's
// Setup nor before its clock; preceding=none leaves them out (and the run
// starts from a settled heap, collected before its clock). Either way the
// heap is settled after the run, so that a runner that waits holds no
// free memory. The probe
// target writes its file on open and says whether it was there ("new").
func TestARunFollowsItsProgramsEarlierTests(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		none bool
		want string
	}{
		{false, "open:new close open:new earlier:setup earlier:op close open:new later:setup later:op close"},
		// Without the replay, the old way: settled before Setup, collected
		// before the clock.
		{true, "open:new close open:new settled later:setup collected later:op close"},
	} {
		req := protocol.Request{Verb: protocol.VerbRun, Target: "fresh-probe", Workload: "ReplayProbeLater",
			DB: "sqlite", Location: protocol.Location{DSN: filepath.Join(dir, fmt.Sprintf("later-%v.db", c.none))},
			Scope: "c0", Name: "ReplayProbeLater/db=sqlite", N: 1, NoPreceding: c.none}
		in := req.Encode() + "\nclose target=fresh-probe&scope=c0\n"
		var out, log bytes.Buffer
		s := &Loop{In: strings.NewReader(in), Out: &out, Log: &log}
		freshCalls.take()
		replayGCs = forcedGCs()
		if err := s.Serve(context.Background()); err != nil {
			t.Fatal(err)
		}
		if forcedGCs() == replayGCs {
			t.Errorf("preceding none %v: the heap was not settled after the run", c.none)
		}
		got := freshCalls.take()
		if got != c.want {
			t.Errorf("preceding none %v: calls\n%s\nwant\n%s\nlog:\n%s", c.none, got, c.want, log.String())
		}
		rd := benchfmt.NewReader(strings.NewReader(out.String()), "runner")
		n := 0
		for rd.Scan() {
			r, ok := rd.Result().(*benchfmt.Result)
			if !ok {
				continue
			}
			n++
			if ns, ok := r.Value("sec/op"); !ok || ns >= replayEarlierOp.Seconds() {
				t.Errorf("preceding none %v: the run took %v s, its clock holds more than its own operation",
					c.none, ns)
			}
		}
		if n != 1 {
			t.Errorf("preceding none %v: %d results, want 1:\n%s", c.none, n, out.String())
		}
	}
}
