package compare

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"

	"github.com/sqlbench/sqlbench/internal/report"
)

// Two sessions on one machine differ even when nothing changed: a virtual
// machine's CPUs run faster or slower with its neighbours on the host and
// wake at other speeds, and every cell timed in a session moves with them.
// Compare therefore estimates, per unit, the shift that moved the cells of
// the pair alike (the median of their changes) and how far cells stray
// from it when nothing else moved them (the spread of their changes about
// that median). A cell's change counts against a --fail-over threshold
// only where what is left of it beyond the shift exceeds the threshold and
// ShiftSpreads spreads, and is significant with the shift taken out.
//
// What the shift cannot tell apart is the machine from a change of the
// code that moves every cell alike (a driver change slowing every query
// by the same share). Such a change is tested in one interleaved session
// holding both (NAME@VERSION, --baseline), where the machine cancels; the
// comparison says so when the shift itself exceeds a threshold.

// ShiftSpreads is how many spreads beyond the shared shift a cell's change
// must lie to be the cell's own. With changes about normal, a cell lies
// beyond 4 spreads on its worse side about once in 30,000; the changes of
// a virtual machine's sessions have heavier tails, and
// docs/methodology.md gives the false-alarm rate measured over A/A pairs.
const ShiftSpreads = 4

// MinShiftCells is the fewest cells from which a comparison estimates the
// shift: fewer say too little about how far cells stray from it.
const MinShiftCells = 5

// Shift is what moved every cell of a comparison alike, in one unit.
type Shift struct {
	// Cells is the number of cells it was estimated from (cells with a
	// positive median on both sides); below MinShiftCells it is not used.
	Cells int
	// Factor is the median over those cells of new/old (1: no shift).
	Factor float64
	// Spread is the robust standard deviation (1.4826 times the median
	// absolute deviation) of the cells' log(new/old) about log(Factor):
	// how far a cell strays from the shared shift.
	Spread float64
}

// Usable reports whether the shift was estimated from enough cells to be
// taken out of a cell's change.
func (s Shift) Usable() bool { return s.Cells >= MinShiftCells }

// Band is the largest change, as a factor either way, that the shift and
// ShiftSpreads spreads explain in a cell: exp(ShiftSpreads × Spread).
func (s Shift) Band() float64 { return math.Exp(ShiftSpreads * s.Spread) }

// String says what the shift is: "-6.1% (±2.3% spread, 34 cells)".
func (s Shift) String() string {
	return fmt.Sprintf("%+.1f%% (cells stray ±%.1f%% from it, %d cells)",
		100*(s.Factor-1), 100*(math.Exp(s.Spread)-1), s.Cells)
}

// estimateShift estimates the shift from the changes' medians.
func estimateShift(changes []Change) Shift {
	var logs []float64
	for _, ch := range changes {
		if ch.Old > 0 && ch.New > 0 {
			logs = append(logs, math.Log(ch.New/ch.Old))
		}
	}
	if len(logs) == 0 {
		return Shift{Factor: 1}
	}
	m := report.Median(logs)
	dev := make([]float64, len(logs))
	for i, l := range logs {
		dev[i] = math.Abs(l - m)
	}
	return Shift{Cells: len(logs), Factor: math.Exp(m), Spread: 1.4826 * report.Median(dev)}
}

// beyondShift sets what is left of ch beyond the comparison's shift: the
// change with the shift divided out, its significance on the samples so
// adjusted, and the share of the change the shift accounts for.
func (c *Comparison) beyondShift(ch *Change, old *benchmath.Sample, newVals []float64) {
	ch.Beyond, ch.BeyondP, ch.ShiftShare = ch.Delta, ch.P, 0
	if !c.Shift.Usable() || ch.Old <= 0 || ch.New <= 0 {
		return
	}
	f := c.Shift.Factor
	ch.Beyond = ch.New/(ch.Old*f) - 1
	adj := make([]float64, len(newVals))
	for i, v := range newVals {
		adj[i] = v / f
	}
	ns := benchmath.NewSample(adj, &benchmath.DefaultThresholds)
	ch.BeyondP = benchmath.AssumeNothing.Compare(old, ns).P
	total, shared := math.Log(ch.New/ch.Old), math.Log(f)
	if total != 0 && shared/total > 0 {
		ch.ShiftShare = min(1, shared/total)
	}
}

// ownRegression reports whether ch is a regression of its own cell beyond
// threshold: significant and for the worse by more than threshold, and,
// where the comparison's shift is usable, also with the shift taken out,
// significantly, by more than threshold and beyond the shift's band.
func (c *Comparison) ownRegression(ch Change, threshold float64) bool {
	if !ch.Significant || !ch.Worse || math.Abs(ch.Delta) <= threshold {
		return false
	}
	if !c.Shift.Usable() {
		return true
	}
	beyond := math.Abs(math.Log1p(ch.Beyond)) > ShiftSpreads*c.Shift.Spread // outside the band
	return c.worse(ch.Beyond) && beyond && math.Abs(ch.Beyond) > threshold && ch.BeyondP < Alpha
}

// ShiftWorse reports whether the shift itself is a change for the worse by
// more than threshold: every cell moved alike, which the machine or a
// change touching every cell can do, and two sessions cannot tell apart.
func (c *Comparison) ShiftWorse(threshold float64) bool {
	if !c.Shift.Usable() {
		return false
	}
	d := c.Shift.Factor - 1
	return c.worse(d) && math.Abs(d) > threshold
}

// shiftNote says what moved every cell alike and how far beyond it a
// cell's change must lie to count against --fail-over, or that too few
// cells estimate it.
func (c *Comparison) shiftNote() string {
	if !c.Shift.Usable() {
		return fmt.Sprintf("every cell alike: not estimated from %d cell(s) (it takes %d); a change counts as it is",
			c.Shift.Cells, MinShiftCells)
	}
	return fmt.Sprintf("every cell alike: %s;\n  --fail-over counts a cell's change only beyond it, "+
		"by %d spreads (×%.3f) and the threshold",
		c.Shift, ShiftSpreads, c.Shift.Band())
}
