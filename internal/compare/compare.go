// Package compare compares two sets of results (two sessions) cell by cell in every unit, for sqlbench compare:
// each change with its significance and interval, its verdict at a resolution, the shift every cell of the pair
// shared taken out of the gate, per-unit regression thresholds, the ratios to a baseline and their change between
// the sets, the settings that differ, as text, Markdown or JSON.
package compare

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// Alpha is the significance level of comparisons.
const Alpha = 0.05

// Change is one cell compared between two sets of results.
type Change struct {
	Name string
	// Old and New are the medians; OldN and NewN the run counts.
	Old, New   float64
	OldN, NewN int
	// P is the Mann-Whitney U test's p-value (benchmath.AssumeNothing).
	P float64
	// Delta is New/Old - 1.
	Delta float64
	// Significant is P < Alpha.
	Significant bool
	// Worse is set when the change goes the wrong way for the unit.
	Worse bool
	// Beyond is what is left of the change beyond the comparison's Shift
	// (New/(Old×Shift.Factor) - 1), BeyondP the p-value of the test with
	// the shift divided out of the new runs, and ShiftShare the share of
	// the change (of its logarithm, 0 to 1) that the shift accounts for.
	// Without a usable shift they are Delta, P and 0.
	Beyond, BeyondP, ShiftShare float64
	// Lo and Hi bound New's median over Old's: the percentile bootstrap
	// at Confidence that the unpaired ratio tables use, from which a
	// change the test does not find significant is called equivalent or
	// undecided (Kind). Infinite with fewer than 2 runs a side or from an
	// old median of zero.
	Lo, Hi float64
}

// Comparison is two sets of results compared cell by cell in one unit.
type Comparison struct {
	OldLabel, NewLabel string
	// Unit is the unit compared; HigherIsBetter its direction.
	Unit           string
	HigherIsBetter bool
	Changes        []Change
	// Resolution is the smallest change that matters (0.05: 5% either
	// way), for the verdicts (Kind); 0 takes report.DefaultResolution.
	Resolution float64
	// GeoOld and GeoNew are the geometric means of the medians of the
	// cells in both sets; GeoSkipped counts the cells left out of them, a
	// median of zero (or below) in either set, which no geometric mean
	// can hold.
	GeoOld, GeoNew float64
	GeoSkipped     int
	// OnlyOld and OnlyNew name the cells present in one set only.
	OnlyOld, OnlyNew []string
	// Shift is what moved every cell alike (see Shift).
	Shift Shift
}

// primaryUnit is the unit a comparison leads with: ops/s, or ns/op when
// either set lacks ops/s.
func primaryUnit(oldVals, newVals map[string]map[string][]float64) string {
	if !hasUnit(oldVals, "ops/s") || !hasUnit(newVals, "ops/s") {
		return "ns/op"
	}
	return "ops/s"
}

// compareUnit compares the cells of oldOrder with their namesakes in new in
// one unit.
func compareUnit(oldLabel, newLabel, unit string, oldOrder []string, oldVals map[string]map[string][]float64,
	newOrder []string, newVals map[string]map[string][]float64) *Comparison {
	c := &Comparison{OldLabel: oldLabel, NewLabel: newLabel, Unit: unit, HigherIsBetter: report.MeasureOf(unit).Higher}
	var olds, news []float64
	var oldSamples []*benchmath.Sample // per cell: the old runs, and the new ones,
	var newRuns [][]float64            // for the test with the shift taken out
	for _, name := range oldOrder {
		ov := oldVals[name][unit]
		nv, ok := newVals[name][unit]
		if len(ov) == 0 || !ok || len(nv) == 0 {
			c.OnlyOld = append(c.OnlyOld, name)
			continue
		}
		os := benchmath.NewSample(ov, &benchmath.DefaultThresholds)
		ns := benchmath.NewSample(nv, &benchmath.DefaultThresholds)
		cmp := benchmath.AssumeNothing.Compare(os, ns)
		ch := Change{Name: name,
			Old:  benchmath.AssumeNothing.Summary(os, report.Confidence).Center,
			New:  benchmath.AssumeNothing.Summary(ns, report.Confidence).Center,
			OldN: cmp.N1, NewN: cmp.N2, P: cmp.P, Significant: cmp.P < Alpha}
		if ch.Old != 0 {
			ch.Delta = ch.New/ch.Old - 1
		}
		ch.Worse = c.worse(ch.Delta)
		ch.Lo, ch.Hi = changeInterval(ov, nv)
		c.Changes = append(c.Changes, ch)
		oldSamples, newRuns = append(oldSamples, os), append(newRuns, nv)
		if ch.Old > 0 && ch.New > 0 {
			olds, news = append(olds, ch.Old), append(news, ch.New)
		} else {
			c.GeoSkipped++
		}
	}
	for _, name := range newOrder {
		if len(oldVals[name][unit]) == 0 {
			c.OnlyNew = append(c.OnlyNew, name)
		}
	}
	if len(olds) > 0 {
		c.GeoOld, c.GeoNew = stats.GeoMean(olds), stats.GeoMean(news)
	}
	c.Shift = estimateShift(c.Changes)
	for i := range c.Changes {
		c.beyondShift(&c.Changes[i], oldSamples[i], newRuns[i])
	}
	return c
}

// changeInterval bounds report.Median(nv)/report.Median(ov) by the percentile bootstrap
// (report.BootstrapRatio); both all zero is no change, [1, 1]; infinite bounds
// when either side has fewer than 2 runs or the old median is not above 0.
func changeInterval(ov, nv []float64) (lo, hi float64) {
	if len(ov) < 2 || len(nv) < 2 {
		return math.Inf(-1), math.Inf(1)
	}
	if slices.Max(ov) == 0 && slices.Min(ov) == 0 && slices.Max(nv) == 0 && slices.Min(nv) == 0 {
		return 1, 1
	}
	if !(report.Median(ov) > 0) || slices.Min(nv) < 0 {
		return math.Inf(-1), math.Inf(1)
	}
	return report.BootstrapRatio(nv, ov)
}

// Kind is the verdict on a change at the comparison's resolution:
// Equivalent when its bootstrap interval (Lo, Hi) lies within
// [1/(1+p), 1+p] (no change that matters, significant or not, as
// report.Classify); else, when the Mann-Whitney U test finds it
// significant, Faster or Slower for ops/s and ns/op, "better" or "worse"
// in another unit; else Undecided.
func (c *Comparison) Kind(ch Change) string {
	if report.Classify(ch.Lo, ch.Hi, c.resolution()) == report.Equivalent {
		return report.Equivalent
	}
	if ch.Significant && ch.Delta != 0 {
		speed := c.Unit == "ops/s" || c.Unit == "ns/op"
		switch {
		case ch.Worse && speed:
			return report.Slower
		case ch.Worse:
			return "worse"
		case speed:
			return report.Faster
		}
		return "better"
	}
	return report.Undecided
}

// Verdict is Kind as the tables print it: an undecided change with the
// runs per side that would likely decide it (report.SettleRuns).
func (c *Comparison) Verdict(ch Change) string {
	k := c.Kind(ch)
	n := min(ch.OldN, ch.NewN)
	if k != report.Undecided || n < 2 || !(ch.Old > 0 && ch.New > 0) {
		return report.VerdictText(k, 0, n)
	}
	// An interval that excludes 1 where the test finds no change has no
	// estimate: the two disagree, and more runs settle which.
	settle := report.SettleRuns(ch.New/ch.Old, ch.Lo, ch.Hi, n, c.resolution())
	if settle != 0 || !report.HasInterval(ch.Lo, ch.Hi) {
		return report.VerdictText(k, settle, n)
	}
	return report.Undecided
}

// Decisions counts the comparison's verdicts (Kind): better counts as
// faster, worse as slower.
func (c *Comparison) Decisions() report.Decisions {
	var d report.Decisions
	for _, ch := range c.Changes {
		switch k := c.Kind(ch); k {
		case "better":
			d.Add(report.Faster)
		case "worse":
			d.Add(report.Slower)
		default:
			d.Add(k)
		}
	}
	return d
}

// resolution is the comparison's Resolution, or report.DefaultResolution.
func (c *Comparison) resolution() float64 {
	return report.ResolutionOr(c.Resolution, report.DefaultResolution)
}

// sampleValues groups the values of results by name and unit, names in
// order of first appearance.
func sampleValues(rs []*benchfmt.Result) ([]string, map[string]map[string][]float64) {
	var order []string
	vals := map[string]map[string][]float64{}
	for _, r := range rs {
		name := r.Name.String()
		byUnit, ok := vals[name]
		if !ok {
			byUnit = map[string][]float64{}
			vals[name] = byUnit
			order = append(order, name)
		}
		for _, v := range r.Values {
			unit, val := v.Unit, v.Value
			if v.OrigUnit != "" {
				unit, val = v.OrigUnit, v.OrigValue
			}
			byUnit[unit] = append(byUnit[unit], val)
		}
	}
	return order, vals
}

func hasUnit(vals map[string]map[string][]float64, unit string) bool {
	for _, byUnit := range vals {
		if len(byUnit[unit]) > 0 {
			return true
		}
	}
	return false
}

// worse reports whether a change of delta (new/old - 1) goes the wrong
// way for the comparison's unit.
func (c *Comparison) worse(delta float64) bool {
	return c.HigherIsBetter && delta < 0 || !c.HigherIsBetter && delta > 0
}

// Regressions returns the significant changes for the worse by more than
// threshold (0.05 is 5%) that the comparison's shift does not explain
// (ownRegression).
func (c *Comparison) Regressions(threshold float64) []Change {
	var out []Change
	for _, ch := range c.Changes {
		if c.ownRegression(ch, threshold) {
			out = append(out, ch)
		}
	}
	return out
}

// CanBeSignificant reports whether the Mann-Whitney U test that Compare
// runs (benchmath.AssumeNothing) can find any difference between n1 and n2
// runs significant at Alpha: whether the p-value of two samples that do not
// overlap at all, the smallest the test gives for those sizes, is below
// Alpha.
func CanBeSignificant(n1, n2 int) bool {
	if n1 <= 0 || n2 <= 0 {
		return false
	}
	v1, v2 := make([]float64, n1), make([]float64, n2)
	for i := range v1 {
		v1[i] = float64(i + 1)
	}
	for i := range v2 {
		v2[i] = float64(n1 + i + 1)
	}
	s1 := benchmath.NewSample(v1, &benchmath.DefaultThresholds)
	s2 := benchmath.NewSample(v2, &benchmath.DefaultThresholds)
	return benchmath.AssumeNothing.Compare(s1, s2).P < Alpha
}

// MinRuns returns the fewest runs, the same number on both sides, with
// which a comparison can find a change significant (CanBeSignificant).
func MinRuns() int {
	n := 1
	for !CanBeSignificant(n, n) {
		n++
	}
	return n
}

// Undecidable returns the changes whose run counts are too few for the
// test ever to find them significant (CanBeSignificant).
func (c *Comparison) Undecidable() []Change {
	var out []Change
	for _, ch := range c.Changes {
		if !CanBeSignificant(ch.OldN, ch.NewN) {
			out = append(out, ch)
		}
	}
	return out
}

// IntervalString formats the change's interval (Lo, Hi): "0.97–1.04×",
// or "-" without one.
func (ch Change) IntervalString() string {
	return report.FormatRatioInterval(report.Ratio{Lo: ch.Lo, Hi: ch.Hi})
}

// DeltaString formats the change as benchstat does (benchmath's
// FormatDelta): "~" when not significant, else the signed percentage ("?"
// from an old median of 0).
func (ch Change) DeltaString() string {
	if !ch.Significant {
		return "~"
	}
	return benchmath.Comparison{Alpha: Alpha}.FormatDelta(ch.Old, ch.New) // P 0: past the test
}

// Text writes the comparison as a table: per cell the old and new medians
// with their run counts, the change (~ when not significant) and the
// p-value, then the geometric mean and the shift every cell shared.
func (c *Comparison) Text(w io.Writer) error {
	if err := c.table(w); err != nil {
		return err
	}
	fmt.Fprintln(w, c.shiftNote())
	for _, n := range c.OnlyOld {
		fmt.Fprintf(w, "only in %s: %s\n", c.OldLabel, report.CellLabel(n))
	}
	for _, n := range c.OnlyNew {
		fmt.Fprintf(w, "only in %s: %s\n", c.NewLabel, report.CellLabel(n))
	}
	return nil
}

// table writes the comparison's table: two lines naming the unit and the
// test, then per cell the old and new medians (formatted for the unit)
// with their run counts (once in the header when every cell has the same),
// the change and the p-value, then the geometric mean.
func (c *Comparison) table(w io.Writer) error {
	fmt.Fprintf(w, "%s (%s is better): median over the runs; change in the median,\n", c.Unit, c.better())
	fmt.Fprintf(w, "  ~ when not significant (Mann-Whitney U test, alpha %g); "+
		"new÷old: the bootstrap interval of\n", Alpha)
	fmt.Fprintf(w, "  the medians' ratio; equivalent: that interval within %s, significant or not\n",
		report.FormatResolution(c.resolution()))
	f := report.MeasureOf(c.Unit).Format
	oldN, newN := c.uniformN()
	header := []string{"", c.OldLabel, c.NewLabel, "change", "p", "new÷old", "verdict"}
	if oldN > 0 {
		header[1], header[2] = fmt.Sprintf("%s n=%d", c.OldLabel, oldN), fmt.Sprintf("%s n=%d", c.NewLabel, newN)
	}
	var rows [][]string
	for _, ch := range c.Changes {
		o, n := f(ch.Old), f(ch.New)
		if oldN == 0 {
			o, n = fmt.Sprintf("%s n=%d", o, ch.OldN), fmt.Sprintf("%s n=%d", n, ch.NewN)
		}
		rows = append(rows, []string{report.CellLabel(ch.Name), o, n, ch.DeltaString(), fmt.Sprintf("p=%.3f", ch.P),
			ch.IntervalString(), c.Verdict(ch)})
	}
	if c.GeoOld > 0 {
		change := fmt.Sprintf("%+.2f%%", 100*(c.GeoNew/c.GeoOld-1))
		rows = append(rows, []string{"geomean", f(c.GeoOld), f(c.GeoNew), change, "", "", ""})
	}
	t := textlayout.Labels(header, rows)
	t.AlignRight = true
	if err := t.WriteColumns(w); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	if note := c.geoNote(); note != "" {
		fmt.Fprintln(w, note)
	}
	if c.Unit == "ops/s" || c.Unit == "ns/op" {
		fmt.Fprintf(w, "%s: %s at %s\n", c.Unit, c.Decisions(), report.FormatResolution(c.resolution()))
	}
	return nil
}

// uniformN returns the run counts every cell has on each side, or 0, 0
// when they differ from cell to cell.
func (c *Comparison) uniformN() (oldN, newN int) {
	for i, ch := range c.Changes {
		if i > 0 && (ch.OldN != oldN || ch.NewN != newN) {
			return 0, 0
		}
		oldN, newN = ch.OldN, ch.NewN
	}
	return oldN, newN
}

// geoNote says how many cells the geometric mean left out, or "".
func (c *Comparison) geoNote() string {
	if c.GeoSkipped == 0 {
		return ""
	}
	return fmt.Sprintf("geomean of %d of %d cells: %d with a zero median left out (a geometric mean cannot hold zero)",
		len(c.Changes)-c.GeoSkipped, len(c.Changes), c.GeoSkipped)
}
