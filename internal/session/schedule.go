// The schedule: the cells of a session (a workload on a placement) and
// the order of their runs' slices, interleaved so that the machine's drift
// hits every target alike.

package session

import (
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/targets"
)

// Placement is a target reached over one transport ("tcp", "unix"; empty
// for SQLite, which has none), with the declaration of the runner it is
// linked into.
type Placement struct {
	Target targets.Spec
	Net    string
	// Runner is the hello of the target's runner (Session.Declarations): what
	// the runner implements. The zero Hello implements nothing.
	Runner protocol.Hello
	// CPU, when above 0, is the GOMAXPROCS the runner runs the cell's
	// workload with (go test -cpu); the cell's name ends in "-CPU" as a go
	// test benchmark name does.
	CPU int
}

// Runs reports whether the placement runs workload w: w runs on the
// target's database, the catalogue lets the target run it (Spec.Takes), the
// target's runner declares the workload, and the target declares the
// capability w needs, if any.
func (p Placement) Runs(w bench.Workload) bool {
	return w.RunsOn(p.Target.DB) && p.Target.Takes(w.ID()) && p.Runner.Runs(p.Target.Opener(), w.ID()) &&
		(w.Needs == "" || p.Runner.Has(p.Target.Opener(), w.Needs))
}

// Cell is one workload on one target over one transport.
type Cell struct {
	Workload bench.Workload
	Placement
}

// Name returns the cell's benchmark name, without the "Benchmark" prefix:
// the workload, then the target's keys, then net= where there is one, then
// the workload's own keys, then "-N" when the cell sets GOMAXPROCS to N
// (the suffix go test -cpu writes, which benchfmt reads as GOMAXPROCS).
func (c Cell) Name() string {
	name := c.Workload.Name + "/" + c.Target.Key()
	if c.Net != "" {
		name += "/net=" + c.Net
	}
	if c.Workload.Keys != "" {
		name += "/" + c.Workload.Keys
	}
	if c.CPU > 0 {
		name += "-" + strconv.Itoa(c.CPU)
	}
	return name
}

// Label returns the cell's name as a person reads it: Name with the
// target's name (as --targets and sqlbench list name it) in place of its
// db=, driver= and api= keys.
func (c Cell) Label() string {
	return strings.Replace(c.Name(), c.Target.Key(), c.Target.Name, 1)
}

// FileName returns a name for the cell's files (a SQLite database): the
// target and the workload's ID, with only letters, digits, '-', '_' and '.'.
func (c Cell) FileName() string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '-'
	}, c.Target.Name+"-"+c.Workload.ID()+c.cpuSuffix())
}

// cpuSuffix tells apart the files of cells that differ only in GOMAXPROCS.
func (c Cell) cpuSuffix() string {
	if c.CPU > 0 {
		return "-cpu" + strconv.Itoa(c.CPU)
	}
	return ""
}

// Step is one slice of one run of one cell.
type Step struct {
	Cell Cell
	// Run counts from 1 to the session's count.
	Run int
	// Slice counts from 1 to Slices: a run is made of Slices parts, each
	// timed separately and summed by the runner into the run's one result.
	Slice, Slices int
	// Pass is the pass of the schedule the step belongs to, from 0.
	Pass int
}

// Schedule orders count runs of every cell (a workload on a placement that
// runs it, by its runner's declaration: Placement.Runs), each run made of
// slices parts, so that drift over time hits every target and every run
// alike.
//
// The session is a sequence of count*slices passes; pass p runs slice
// p/count+1 of run p%count+1 of every cell. A run's slices are thus spread
// evenly over the whole session, and a slow spell of the machine (another
// tenant, a burst of CPU steal) lands on a slice of every run rather than on
// a whole run. Within a pass the order of placements rotates by one each
// pass (A B C, B C A, C A B ...), so no target always runs first or last.
// Workloads that must run whole (Workload.Whole) run in the first count
// passes, one step per run.
func Schedule(ws []bench.Workload, ps []Placement, count, slices int) []Step {
	slices = max(slices, 1)
	steps := make([]Step, 0, len(ws)*len(ps)*count*slices)
	for pass := 0; pass < count*slices; pass++ {
		run, slice := pass%count+1, pass/count+1
		for _, w := range ws {
			n := slices
			if w.Whole {
				if slice > 1 {
					continue
				}
				n = 1
			}
			for i := range ps {
				p := ps[(i+pass)%len(ps)]
				if p.Runs(w) {
					steps = append(steps,
						Step{Cell: Cell{Workload: w, Placement: p}, Run: run, Slice: slice, Slices: n, Pass: pass})
				}
			}
		}
	}
	return steps
}

// schedule returns the session's steps: every planned workload on every
// runnable target over each of its transports and GOMAXPROCS values, as far
// as its runner declares it (Placement.Runs) and Config.Cells allows,
// interleaved (Schedule).
func (s *Session) schedule() []Step { return s.scheduleN(s.cfg.Count) }

// scheduleN is schedule with count runs per cell.
func (s *Session) scheduleN(count int) []Step {
	var places []Placement
	for _, t := range s.p.Runnable {
		for _, n := range s.dbs.netsFor(t) {
			for _, cpu := range cpusFor(s.cfg, t) {
				places = append(places, Placement{Target: t, Net: n, Runner: s.declared[t.Group], CPU: cpu})
			}
		}
	}
	return slices.DeleteFunc(Schedule(s.p.Workloads, places, count, s.cfg.Slices), func(st Step) bool {
		return !s.cfg.Runs(st.Cell.Target.Name, st.Cell.Workload.ID())
	})
}
