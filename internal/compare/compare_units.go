package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// Comparisons is two sets of results compared cell by cell in every unit
// either holds.
type Comparisons struct {
	OldLabel, NewLabel string
	// Units has one comparison per unit: the primary unit (ops/s, or ns/op
	// for files without it) first, then the units sqlbench writes in their
	// order, then any others by name. A unit only one set holds is
	// compared in no cell (every cell is OnlyOld or OnlyNew there).
	Units []*Comparison
}

// SetResolution sets the resolution of every unit's verdicts
// (Comparison.Resolution; 0 takes report.DefaultResolution).
func (cs *Comparisons) SetResolution(p float64) {
	for _, c := range cs.Units {
		c.Resolution = p
	}
}

// Units compares old and new cell by cell in every unit.
func Units(oldLabel string, old []*benchfmt.Result, newLabel string, new []*benchfmt.Result) *Comparisons {
	oldOrder, oldVals := sampleValues(old)
	newOrder, newVals := sampleValues(new)
	primary := primaryUnit(oldVals, newVals)
	units := []string{primary}
	seen := map[string]bool{primary: true}
	var others []string
	for _, vals := range []map[string]map[string][]float64{oldVals, newVals} {
		for _, byUnit := range vals {
			for u := range byUnit {
				if !seen[u] && !report.IsNoiseUnit(u) { // the machine's, not the cells'
					seen[u] = true
					others = append(others, u)
				}
			}
		}
	}
	order := report.UnitOrder()
	slices.SortFunc(others, func(a, b string) int {
		ia, ib := slices.Index(order, a), slices.Index(order, b)
		if ia < 0 {
			ia = len(order)
		}
		if ib < 0 {
			ib = len(order)
		}
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
	cs := &Comparisons{OldLabel: oldLabel, NewLabel: newLabel}
	for _, u := range append(units, others...) {
		cs.Units = append(cs.Units, compareUnit(oldLabel, newLabel, u, oldOrder, oldVals, newOrder, newVals))
	}
	return cs
}

// Unit returns the comparison in unit, or nil.
func (cs *Comparisons) Unit(unit string) *Comparison {
	for _, c := range cs.Units {
		if c.Unit == unit {
			return c
		}
	}
	return nil
}

// Thresholds are the largest changes for the worse that a comparison
// tolerates, by unit (0.05: 5%).
type Thresholds map[string]float64

// PrimaryThreshold is the key of a threshold given without a unit: it
// applies to the comparison's primary unit (ops/s, or ns/op).
const PrimaryThreshold = ""

// unitAliases are short names accepted for units in thresholds.
func unitAliases() map[string]string {
	out := map[string]string{}
	for _, u := range benchfile.Units() {
		if u.Short != "" {
			out[u.Short] = u.Unit
		}
	}
	return out
}

// ParseThresholds parses --fail-over: comma-separated items UNIT=P% (the %
// may be left out), or a bare P% for the primary unit: "5%",
// "ops/s=5%,B/op=10%", "p99=20%".
func ParseThresholds(s string) (Thresholds, error) {
	th := Thresholds{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		unit, pct := PrimaryThreshold, item
		if i := strings.LastIndex(item, "="); i >= 0 {
			unit, pct = strings.TrimSpace(item[:i]), item[i+1:]
			if a, ok := unitAliases()[unit]; ok {
				unit = a
			}
			if unit == "" {
				return nil, fmt.Errorf("want a percentage such as 5%% or per unit ops/s=5%%,B/op=10%%, got %q", item)
			}
		}
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(pct), "%"), 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("want a percentage such as 5%% or per unit ops/s=5%%,B/op=10%%, got %q", item)
		}
		if _, dup := th[unit]; dup {
			return nil, fmt.Errorf("%q has a threshold twice", cmpOr(unit, "the primary unit"))
		}
		th[unit] = v / 100
	}
	return th, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Resolve returns th with the primary unit's threshold under its unit's
// name, and an error naming a unit neither set of results holds.
func (cs *Comparisons) Resolve(th Thresholds) (Thresholds, error) {
	out := Thresholds{}
	for unit, v := range th {
		if unit == PrimaryThreshold {
			unit = cs.Units[0].Unit
		}
		if cs.Unit(unit) == nil {
			var have []string
			for _, c := range cs.Units {
				have = append(have, c.Unit)
			}
			return nil, fmt.Errorf("no unit %q in the results (they hold %s)", unit, strings.Join(have, ", "))
		}
		if _, dup := out[unit]; dup {
			return nil, fmt.Errorf("%q has a threshold twice", unit)
		}
		out[unit] = v
	}
	return out, nil
}

// Regressions returns, for each unit of th (resolved), the significant
// changes for the worse beyond its threshold.
func (cs *Comparisons) Regressions(th Thresholds) []UnitChange {
	var out []UnitChange
	for _, c := range cs.Units {
		if v, ok := th[c.Unit]; ok {
			for _, ch := range c.Regressions(v) {
				out = append(out, UnitChange{Unit: c.Unit, Threshold: v, Change: ch})
			}
		}
	}
	return out
}

// UnitShift is the shift of one unit's cells, with the threshold it was
// held to.
type UnitShift struct {
	Unit      string
	Threshold float64
	Shift     Shift
}

// ShiftsWorse returns, for each unit of th (resolved), the shift that moved
// every cell alike when it is itself for the worse beyond the threshold
// (Comparison.ShiftWorse): no cell fails for it, and the comparison says
// so.
func (cs *Comparisons) ShiftsWorse(th Thresholds) []UnitShift {
	var out []UnitShift
	for _, c := range cs.Units {
		if v, ok := th[c.Unit]; ok && c.ShiftWorse(v) {
			out = append(out, UnitShift{Unit: c.Unit, Threshold: v, Shift: c.Shift})
		}
	}
	return out
}

// UnitChange is a change in one unit, with the threshold it was held to.
type UnitChange struct {
	Unit      string
	Threshold float64
	Change
}

// Undecidable returns, over the units of th, the changes whose run counts
// are too few for the test ever to find them significant.
func (cs *Comparisons) Undecidable(th Thresholds) []UnitChange {
	var out []UnitChange
	for _, c := range cs.Units {
		if v, ok := th[c.Unit]; ok {
			for _, ch := range c.Undecidable() {
				out = append(out, UnitChange{Unit: c.Unit, Threshold: v, Change: ch})
			}
		}
	}
	return out
}

// resolution is the primary unit's resolution (they are all the same:
// SetResolution).
func (cs *Comparisons) resolution() float64 { return cs.Units[0].resolution() }

// Compared returns the number of cells compared in the primary unit.
func (cs *Comparisons) Compared() int { return len(cs.Units[0].Changes) }

// Text writes one table per unit in which some cell was compared, under
// the primary unit's and each unit of th's the shift every cell shared
// (the shift that --fail-over takes out), then the cells found in one set
// only.
func (cs *Comparisons) Text(w io.Writer, th Thresholds) error {
	first := true
	for i, c := range cs.Units {
		if len(c.Changes) == 0 {
			continue
		}
		if !first {
			fmt.Fprintln(w)
		}
		first = false
		if err := c.table(w); err != nil {
			return err
		}
		if _, gated := th[c.Unit]; gated || i == 0 {
			fmt.Fprintln(w, c.shiftNote())
		}
	}
	c := cs.Units[0]
	for _, n := range c.OnlyOld {
		fmt.Fprintf(w, "only in %s: %s\n", c.OldLabel, report.CellLabel(n))
	}
	for _, n := range c.OnlyNew {
		fmt.Fprintf(w, "only in %s: %s\n", c.NewLabel, report.CellLabel(n))
	}
	return nil
}

// Markdown writes the comparison for a pull-request comment: a summary
// line per unit (cells worse, better, unchanged; the geometric mean's
// change), the regressions beyond th (resolved; may be nil), then each
// unit's table folded in a <details> block, open when it holds such a
// regression.
func (cs *Comparisons) Markdown(w io.Writer, th Thresholds) error {
	fmt.Fprintf(w, "## sqlbench: %s → %s\n\n",
		textlayout.EscapeMarkdown(cs.OldLabel), textlayout.EscapeMarkdown(cs.NewLabel))
	fmt.Fprintf(w, "Medians over the runs; a change counts when a Mann-Whitney U test "+
		"(golang.org/x/perf/benchmath) finds it significant at alpha %g, else `~`: "+
		"equivalent when the bootstrap interval of the change lies within the resolution %s "+
		"(no change that matters), else undecided.\n\n",
		Alpha, report.FormatResolution(cs.resolution()))
	regs := cs.Regressions(th)
	if len(th) > 0 {
		if len(regs) == 0 {
			fmt.Fprintf(w, "**No significant regression beyond the thresholds** (%s).\n\n", thresholdList(th))
		} else {
			fmt.Fprintf(w, "**%d significant regression(s) beyond the thresholds** (%s):\n\n",
				len(regs), thresholdList(th))
			for _, r := range regs {
				m := report.MeasureOf(r.Unit)
				fmt.Fprintf(w, "- `%s` %s: %s → %s, **%s** (p=%.3f)\n", report.CellLabel(r.Name), r.Unit,
					m.Format(r.Old), m.Format(r.New), r.DeltaString(), r.P)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w, "| unit | better when | cells | worse | better | ~ | equivalent | undecided | geomean |"+
		" every cell alike |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, c := range cs.Units {
		if len(c.Changes) == 0 {
			continue
		}
		worse, better := c.counts()
		geo := "-"
		if c.GeoOld > 0 {
			geo = fmt.Sprintf("%+.2f%%", 100*(c.GeoNew/c.GeoOld-1))
		}
		if c.GeoSkipped > 0 {
			geo += fmt.Sprintf(" (%d zero cells left out)", c.GeoSkipped)
		}
		d := c.Decisions()
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %d | %d | %s | %s |\n", textlayout.EscapeMarkdown(c.Unit),
			c.better(), len(c.Changes), worse, better, len(c.Changes)-worse-better, d.Equivalent, d.Undecided, geo,
			c.shiftCell())
	}
	for _, c := range cs.Units {
		if len(c.Changes) == 0 {
			continue
		}
		open := ""
		for _, r := range regs {
			if r.Unit == c.Unit {
				open = " open"
			}
		}
		worse, better := c.counts()
		fmt.Fprintf(w, "\n<details%s><summary>%s (%s is better): %d worse, %d better</summary>\n\n",
			open, c.Unit, c.better(), worse, better)
		fmt.Fprintf(w, "| cell | %s | %s | change | p | new÷old | verdict |\n|---|--:|--:|--:|--:|--:|---|\n",
			textlayout.EscapeMarkdown(cs.OldLabel), textlayout.EscapeMarkdown(cs.NewLabel))
		f := report.MeasureOf(c.Unit).Format
		for _, ch := range c.Changes {
			d := ch.DeltaString()
			if v, ok := th[c.Unit]; ok && c.ownRegression(ch, v) {
				d = "**" + d + "**"
			}
			fmt.Fprintf(w, "| `%s` | %s n=%d | %s n=%d | %s | %.3f | %s | %s |\n",
				textlayout.EscapeMarkdown(report.CellLabel(ch.Name)), f(ch.Old), ch.OldN, f(ch.New), ch.NewN, d, ch.P,
				ch.IntervalString(), textlayout.EscapeMarkdown(c.Verdict(ch)))
		}
		fmt.Fprintln(w, "\n</details>")
	}
	c := cs.Units[0]
	if len(c.OnlyOld)+len(c.OnlyNew) > 0 {
		fmt.Fprintln(w)
		for _, n := range c.OnlyOld {
			fmt.Fprintf(w, "- only in %s: `%s`\n",
				textlayout.EscapeMarkdown(c.OldLabel), textlayout.EscapeMarkdown(report.CellLabel(n)))
		}
		for _, n := range c.OnlyNew {
			fmt.Fprintf(w, "- only in %s: `%s`\n",
				textlayout.EscapeMarkdown(c.NewLabel), textlayout.EscapeMarkdown(report.CellLabel(n)))
		}
	}
	return nil
}

// shiftCell is the shift as a table cell: "-6.1% ±2.3%", or "-" when too
// few cells estimate it.
func (c *Comparison) shiftCell() string {
	if !c.Shift.Usable() {
		return "-"
	}
	return fmt.Sprintf("%+.1f%% ±%.1f%%", 100*(c.Shift.Factor-1), 100*(math.Exp(c.Shift.Spread)-1))
}

// counts returns the number of significant changes for the worse and for
// the better.
func (c *Comparison) counts() (worse, better int) {
	for _, ch := range c.Changes {
		switch {
		case !ch.Significant || ch.Delta == 0:
		case ch.Worse:
			worse++
		default:
			better++
		}
	}
	return worse, better
}

func (c *Comparison) better() string {
	if c.HigherIsBetter {
		return "higher"
	}
	return "lower"
}

// thresholdList formats th: "B/op 10%, ops/s 5%".
func thresholdList(th Thresholds) string {
	var parts []string
	for u, v := range th {
		parts = append(parts, cmpOr(u, "primary")+" "+strconv.FormatFloat(100*v, 'g', -1, 64)+"%")
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}
