package compare

import (
	"fmt"
	"math"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// shiftedPair returns two sets of 6 runs of cells whose medians are base
// (old) and base×factor[cell] (new), each run jittered by ±1%.
func shiftedPair(factors []float64) (old, new []*benchfmt.Result) {
	jitter := []float64{0.99, 1.0, 1.01, 0.995, 1.005, 1.0}
	for i := range jitter {
		for c, f := range factors {
			name := fmt.Sprintf("W/db=sqlite/driver=d%d/api=sql", c)
			base := 1000 * float64(c+1)
			old = append(old, result(name, base*jitter[i]))
			new = append(new, result(name, base*f*jitter[(i+3)%len(jitter)]))
		}
	}
	return old, new
}

// TestGateTakesOutTheShiftEveryCellShared: a session whose every cell ran
// about 10% slower (the machine) fails no cell at 5%, though each change is
// significant and beyond the threshold; a cell 25% slower, 15% beyond
// the shared shift, fails, with the shift's share of its change given.
func TestGateTakesOutTheShiftEveryCellShared(t *testing.T) {
	machine := []float64{0.90, 0.91, 0.89, 0.90, 0.92, 0.88, 0.90, 0.905}
	old, new := shiftedPair(machine)
	c := Units("a", old, "b", new).Units[0]
	if !c.Shift.Usable() || math.Abs(c.Shift.Factor-0.90) > 0.005 {
		t.Fatalf("shift %+v, want a usable factor of about 0.90", c.Shift)
	}
	for _, ch := range c.Changes {
		if !ch.Significant || !ch.Worse || math.Abs(ch.Delta) < 0.07 {
			t.Fatalf("a cell's raw change is not a significant 7%%+ slowdown: %+v", ch)
		}
	}
	if regs := c.Regressions(0.05); len(regs) != 0 {
		t.Errorf("a shift every cell shared failed %d cell(s): %+v", len(regs), regs)
	}
	if !c.ShiftWorse(0.05) || c.ShiftWorse(0.15) {
		t.Errorf(
			"a 10%% shared slowdown: ShiftWorse(5%%) %v, ShiftWorse(15%%) %v",
			c.ShiftWorse(0.05),
			c.ShiftWorse(0.15),
		)
	}

	regressed := append(machine[:len(machine):len(machine)], 0.75)
	old, new = shiftedPair(regressed)
	c = Units("a", old, "b", new).Units[0]
	regs := c.Regressions(0.05)
	if len(regs) != 1 || regs[0].Name != "W/db=sqlite/driver=d8/api=sql" {
		t.Fatalf("want the one cell 15%% beyond the shift, got %+v", regs)
	}
	r := regs[0]
	if math.Abs(r.Beyond-(0.75/0.90-1)) > 0.01 || r.BeyondP >= Alpha {
		t.Errorf("beyond the shift: %+.3f (p=%.3f), want %+.3f, significant", r.Beyond, r.BeyondP, 0.75/0.90-1)
	}
	if want := math.Log(0.90) / math.Log(0.75); math.Abs(r.ShiftShare-want) > 0.03 {
		t.Errorf("the shift's share of the change: %.2f, want %.2f", r.ShiftShare, want)
	}
	// A threshold above what is left beyond the shift: no regression.
	if regs := c.Regressions(0.20); len(regs) != 0 {
		t.Errorf("at 20%%, %d regression(s) for a cell 17%% beyond the shift", len(regs))
	}
}

// TestGateWithTooFewCellsHoldsTheRawChange: below MinShiftCells cells the
// shift is not estimated, the note says so, and a change beyond the
// threshold counts as it is.
func TestGateWithTooFewCellsHoldsTheRawChange(t *testing.T) {
	old, new := shiftedPair([]float64{0.90, 0.90, 0.90})
	c := Units("a", old, "b", new).Units[0]
	if c.Shift.Usable() {
		t.Fatalf("a shift from %d cells", c.Shift.Cells)
	}
	if regs := c.Regressions(0.05); len(regs) != 3 {
		t.Errorf("%d regression(s) of 3 cells 10%% slower with no shift estimated", len(regs))
	}
	if note := c.shiftNote(); note == "" || c.ShiftWorse(0.05) {
		t.Errorf("note %q, ShiftWorse %v", note, c.ShiftWorse(0.05))
	}
}

// TestShiftSpreadIsRobust: one wild cell does not widen the spread the
// others give.
func TestShiftSpreadIsRobust(t *testing.T) {
	changes := []Change{
		{Old: 1, New: 1.01},
		{Old: 1, New: 0.99},
		{Old: 1, New: 1.0},
		{Old: 1, New: 1.02},
		{Old: 1, New: 0.98},
		{Old: 1, New: 5},
	}
	s := estimateShift(changes)
	if s.Cells != 6 || math.Abs(s.Factor-1.005) > 0.006 || s.Spread > 0.03 {
		t.Errorf("shift %+v: want a factor near 1 and a spread of the five, not the wild one", s)
	}
	if s := estimateShift([]Change{{Old: 0, New: 1}}); s.Cells != 0 || s.Factor != 1 {
		t.Errorf("a zero median estimated a shift: %+v", s)
	}
}
