package report

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/sqlbench/sqlbench/internal/textlayout"
	"github.com/sqlbench/sqlbench/internal/unit"
)

// The units of what went on around a run (internal/runner/noise.go;
// docs/methodology.md, "What makes memory-heavy cells vary here"): facts
// of the machine during the run, not of the target, so they are neither
// measures of the tables nor comparisons, but the noise line's input.
const (
	stealUnit = "steal-%"
)

// IsNoiseUnit reports whether unit is one of the runner's noise units
// (the collector's CPU also as a merged run whose slices were all zero
// writes it: gc-cpu-sec/op).
func IsNoiseUnit(unit string) bool {
	switch unit {
	case stealUnit, "minor-faults/op", "major-faults/op", "preempted/op", "migrations/op", "gc/op", "gc-cpu-ns/op",
		"gc-cpu-sec/op":
		return true
	}
	return false
}

// The thresholds above which a run counts as disturbed (NoisyRuns): a
// tenth of its time waiting for a CPU, or the hypervisor taking 5% of the
// machine's CPU time.
const (
	NoisyRunQueue = 0.10
	NoisySteal    = 5.0
)

// NoisyRun is a run that the machine disturbed beyond NoisyRunQueue or
// NoisySteal.
type NoisyRun struct {
	// Cell is the cell's full name, Run the run's place among its runs
	// (from 1, in the order they were written).
	Cell string
	Run  int
	// RunQueue is the share of the run's time that its timing thread was
	// ready to run but waited for a CPU, and Steal the percentage of the
	// machine's CPU time the hypervisor gave to other guests.
	RunQueue, Steal float64
}

// NoisyRuns returns the disturbed runs of the cells whose runs recorded
// their noise (a runner that writes steal-%), in report order, and how
// many runs recorded it.
func (r *Report) NoisyRuns() (noisy []NoisyRun, recorded int) {
	for _, c := range r.Cells {
		steal := c.Values[stealUnit]
		if len(steal) == 0 {
			continue
		}
		ns, runq := c.Values["ns/op"], c.Values[unit.RunQueue]
		if len(ns) != len(steal) || len(runq) != len(steal) {
			// A run whose slices all read a zero run queue is written in
			// another spelling (0 runq-sec/op): the runs no longer pair
			// by place, and only the steal is read.
			runq = nil
		}
		recorded += len(steal)
		for i, s := range steal {
			share := 0.0
			if runq != nil && ns[i] > 0 {
				share = runq[i] / ns[i]
			}
			if share >= NoisyRunQueue || s >= NoisySteal {
				noisy = append(noisy, NoisyRun{Cell: c.Name, Run: i + 1, RunQueue: share, Steal: s})
			}
		}
	}
	return noisy, recorded
}

// maxNoisyCells is how many cells the noise line lists by name, and
// maxNoisyRuns how many disturbed runs of a cell it lists one by one (more
// are summed up as a count and a range).
const (
	maxNoisyCells = 4
	maxNoisyRuns  = 4
)

// writeNoise writes the reports' line on disturbed runs: how many runs
// waited for a CPU or lost the machine to steal, and which, per cell. It
// writes nothing for results without a noise record.
func writeNoise(w io.Writer, r *Report) {
	noisy, recorded := r.NoisyRuns()
	if recorded == 0 {
		return
	}
	waited, stolen := 0, 0
	var cells []string
	byCell := map[string][]NoisyRun{}
	for _, n := range noisy {
		if n.RunQueue >= NoisyRunQueue {
			waited++
		}
		if n.Steal >= NoisySteal {
			stolen++
		}
		if _, ok := byCell[n.Cell]; !ok {
			cells = append(cells, n.Cell)
		}
		byCell[n.Cell] = append(byCell[n.Cell], n)
	}
	width := cmp.Or(r.Width, textlayout.Width)
	line := fmt.Sprintf("disturbed runs: of %d runs, %d waited %.0f%% or more of their time for a CPU"+
		" (the machine's other work; run queue %% below), %d lost %.0f%% or more of the machine to steal",
		recorded, waited, 100*NoisyRunQueue, stolen, NoisySteal)
	fmt.Fprint(w, "\n"+textlayout.Wrap(line, width, "  "))
	for i, c := range cells {
		if i == maxNoisyCells {
			fmt.Fprintf(w, "  … and %d more cells\n", len(cells)-i)
			break
		}
		fmt.Fprint(w, textlayout.Wrap("  "+CellLabel(c)+": "+noisyRuns(byCell[c], len(r.cellValues(c, stealUnit))),
			width, "    "))
	}
}

// cellValues returns the values of unit of the cell named name.
func (r *Report) cellValues(name, unit string) []float64 {
	for _, c := range r.Cells {
		if c.Name == name {
			return c.Values[unit]
		}
	}
	return nil
}

// noisyRuns describes a cell's disturbed runs out of its runs: each one
// (its run-queue share, and its steal when that counted) when they are
// few, else their count and range.
func noisyRuns(ns []NoisyRun, runs int) string {
	if len(ns) > maxNoisyRuns {
		lo, hi, steal := ns[0].RunQueue, ns[0].RunQueue, 0.0
		for _, n := range ns {
			lo, hi, steal = min(lo, n.RunQueue), max(hi, n.RunQueue), max(steal, n.Steal)
		}
		out := fmt.Sprintf("%d of %d runs, %.0f–%.0f%%", len(ns), runs, 100*lo, 100*hi)
		if steal >= NoisySteal {
			out += fmt.Sprintf(", steal up to %.0f%%", steal)
		}
		return out
	}
	var parts []string
	for _, n := range ns {
		what := fmt.Sprintf("%d (%.0f%%", n.Run, 100*n.RunQueue)
		if n.Steal >= NoisySteal {
			what += fmt.Sprintf(", steal %.0f%%", n.Steal)
		}
		parts = append(parts, what+")")
	}
	return "runs " + strings.Join(parts, ", ")
}
