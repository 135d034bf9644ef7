package report

import (
	"fmt"
	"io"
	"math"
)

// RatioChange is one target's ratio to a baseline in two sets of results
// (two sessions): how its standing against the baseline moved. Within
// each session both ran in the same passes, so the machine's drift
// cancels in each ratio; what the machine did between the sessions
// cancels in their comparison too, which two cells' raw figures cannot
// say.
type RatioChange struct {
	Family, DB string
	Old, New   Ratio
}

// Change is New's ratio over Old's, minus 1.
func (rc RatioChange) Change() float64 { return rc.New.Ratio/rc.Old.Ratio - 1 }

// Verdict says whether the target's standing against the baseline moved:
// "faster" or "slower" (than the baseline, relative to before) only when
// the two ratios' intervals do not overlap, else "≈ no change" (no clear change). Two
// disjoint 95% intervals are a stricter test than 5%: the verdict errs
// towards no change.
func (rc RatioChange) Verdict() string {
	o, n := rc.Old, rc.New
	if math.IsInf(o.Lo, 0) || math.IsInf(o.Hi, 0) || math.IsInf(n.Lo, 0) || math.IsInf(n.Hi, 0) {
		return "≈ no interval"
	}
	switch {
	case n.Lo > o.Hi:
		return "faster"
	case n.Hi < o.Lo:
		return "slower"
	}
	return "≈ no change"
}

// RatioChanges pairs every ratio to baseline of old's tables with its
// namesake in new's (same family, database, workload row and target); a
// ratio in one report only is left out. ok is false when baseline is in
// no table of both.
func RatioChanges(old, new *Report, baseline string) (out []RatioChange, ok bool) {
	newTables := map[[2]string]*Table{}
	for _, t := range new.Tables() {
		newTables[[2]string{t.Family, t.DB}] = t
	}
	for _, ot := range old.Tables() {
		nt := newTables[[2]string{ot.Family, ot.DB}]
		if nt == nil {
			continue
		}
		newQs := map[[2]string]Ratio{}
		for _, q := range nt.Ratios(baseline) {
			newQs[[2]string{q.Row, q.Col}] = q
		}
		for _, q := range ot.Ratios(baseline) {
			ok = true
			if nq, found := newQs[[2]string{q.Row, q.Col}]; found && q.Ratio > 0 {
				out = append(out, RatioChange{Family: ot.Family, DB: ot.DB, Old: q, New: nq})
			}
		}
	}
	return out, ok
}

// WriteRatioChanges writes changes as one table per family and database:
// per workload and target, the ratio to the baseline in each set with its
// interval, the change and the verdict.
func WriteRatioChanges(w io.Writer, oldLabel, newLabel string, changes []RatioChange, width int) error {
	var g *textGrid
	var grids []textGrid
	last := ""
	for _, rc := range changes {
		title := fmt.Sprintf("%s · %s · ops/s ÷ %s's, %s → %s", rc.Family, rc.DB, rc.Old.Baseline, oldLabel, newLabel)
		if g == nil || g.Title != title {
			if g != nil {
				grids = append(grids, *g)
			}
			g = &textGrid{Title: title, Header: []string{"workload", "target", oldLabel + " [interval]", newLabel + " [interval]", "change", "verdict"},
				Left: 2, Groups: true}
			last = ""
		}
		row := rc.Old.Row
		if row == last {
			row = ""
		}
		last = rc.Old.Row
		g.Rows = append(g.Rows, []gridCell{label(row), label(rc.Old.Col),
			{Text: ratioWithInterval(rc.Old)}, {Text: ratioWithInterval(rc.New)},
			{Text: fmt.Sprintf("%+.1f%%", 100*rc.Change())}, label(rc.Verdict())})
	}
	if g != nil {
		grids = append(grids, *g)
	}
	for i, gr := range grids {
		if i == len(grids)-1 {
			gr.Notes = []string{"each ratio paired by pass within its session where its runs allow (see run --baseline);",
				"faster or slower only where the two intervals do not overlap, else ≈ no change"}
		}
		if err := writeGridTextWithin(w, gr, width); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// ratioWithInterval formats a ratio and its interval: "0.73× [0.67–0.99]".
func ratioWithInterval(q Ratio) string {
	if math.IsInf(q.Lo, 0) || math.IsInf(q.Hi, 0) {
		return FormatRatio(q.Ratio) + " [-]"
	}
	return fmt.Sprintf("%s [%.2f–%.2f]", FormatRatio(q.Ratio), q.Lo, q.Hi)
}
