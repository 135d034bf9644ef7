// Package orchestrate runs a benchmark session: it turns the selected
// workloads and targets into cells, interleaves their runs across runner
// processes, passes each finished result on as soon as it arrives, and
// contains failures to the cell they belong to.
package orchestrate

import (
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets"
)

// Placement is a target reached over one transport ("tcp", "unix"; empty
// for SQLite, which has none).
type Placement struct {
	Target targets.Spec
	Net    string
}

// Cell is one workload on one target over one transport.
type Cell struct {
	Workload bench.Workload
	Placement
}

// Name returns the cell's benchmark name, without the "Benchmark" prefix:
// the workload, then the target's keys, then net= where there is one, then
// the workload's own keys.
func (c Cell) Name() string {
	name := c.Workload.Name + "/" + c.Target.Key()
	if c.Net != "" {
		name += "/net=" + c.Net
	}
	if c.Workload.Keys != "" {
		name += "/" + c.Workload.Keys
	}
	return name
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
	}, c.Target.Name+"-"+c.Workload.ID())
}

// Step is one run of one cell.
type Step struct {
	Cell Cell
	// Run counts from 1 to the session's count.
	Run int
}

// Schedule orders count runs of every cell (a workload on a placement whose
// database it runs on) so that drift over time hits every target alike: round r runs every workload once on every target, and the
// order of targets rotates by one each round (A B C, B C A, C A B ...), so no
// target always runs first or last.
func Schedule(ws []bench.Workload, ps []Placement, count int) []Step {
	steps := make([]Step, 0, len(ws)*len(ps)*count)
	for r := 0; r < count; r++ {
		for _, w := range ws {
			for i := range ps {
				p := ps[(i+r)%len(ps)]
				if p.Target.Runs(w) {
					steps = append(steps, Step{Cell: Cell{Workload: w, Placement: p}, Run: r + 1})
				}
			}
		}
	}
	return steps
}
