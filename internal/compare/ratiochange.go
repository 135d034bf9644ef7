package compare

import (
	"fmt"
	"io"
	"math"

	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// RatioChange is one target's ratio to a baseline in two sets of results
// (two sessions): how its standing against the baseline moved. Within
// each session both ran in the same passes, so the machine's drift
// cancels in each ratio; what the machine did between the sessions
// cancels in their comparison too, which two cells' raw figures cannot
// say.
type RatioChange struct {
	Family, DB string
	Old, New   report.Ratio
}

// Change is New's ratio over Old's, minus 1.
func (rc RatioChange) Change() float64 { return rc.New.Ratio/rc.Old.Ratio - 1 }

// Interval bounds New's ratio over Old's: [New.Lo/Old.Hi, New.Hi/Old.Lo],
// the quotient of the two intervals (infinite bounds when either has
// none). It excludes 1 exactly when the two intervals do not overlap.
func (rc RatioChange) Interval() (lo, hi float64) {
	o, n := rc.Old, rc.New
	if !report.HasInterval(o.Lo, o.Hi) || !report.HasInterval(n.Lo, n.Hi) {
		return math.Inf(-1), math.Inf(1)
	}
	return n.Lo / o.Hi, n.Hi / o.Lo
}

// Kind is whether the target's standing against the baseline moved, at
// resolution p (report.Classify of Interval): Equivalent when every value
// of Interval lies within [1/(1+p), 1+p]: no change that matters; else
// Faster or Slower (than the baseline, relative to before) only when the
// two ratios' intervals do not overlap, a stricter test than one interval
// of the change, so the verdict errs towards no change; else Undecided.
func (rc RatioChange) Kind(p float64) string {
	lo, hi := rc.Interval()
	return report.Classify(lo, hi, p)
}

// Verdict is Kind as the table prints it: an undecided one with the runs
// per cell, in each session, that would likely decide it (the two
// intervals narrowing about their medians as 1/√runs; report.SettleRuns).
func (rc RatioChange) Verdict(p float64) string {
	lo, hi := rc.Interval()
	n := min(rc.Old.N, rc.New.N)
	return report.VerdictText(rc.Kind(p), report.SettleRuns(rc.Change()+1, lo, hi, n, p), n)
}

// RatioChanges pairs every ratio to baseline of old's tables with its
// namesake in new's (same family, database, workload row and target); a
// ratio in one report only is left out. ok is false when baseline is in
// no table of both.
func RatioChanges(old, new *report.Report, baseline string) (out []RatioChange, ok bool) {
	newTables := map[[2]string]*report.Table{}
	for _, t := range new.Tables() {
		newTables[[2]string{t.Family, t.DB}] = t
	}
	for _, ot := range old.Tables() {
		nt := newTables[[2]string{ot.Family, ot.DB}]
		if nt == nil {
			continue
		}
		newQs := map[[2]string]report.Ratio{}
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
// interval, the change and the verdict at resolution p (Kind).
func WriteRatioChanges(w io.Writer, oldLabel, newLabel string, changes []RatioChange, width int, p float64) error {
	var d report.Decisions
	var g *textlayout.Table
	var grids []textlayout.Table
	last := ""
	for _, rc := range changes {
		title := fmt.Sprintf("%s · %s · ops/s ÷ %s's, %s → %s", rc.Family, rc.DB, rc.Old.Baseline, oldLabel, newLabel)
		if g == nil || g.Title != title {
			if g != nil {
				grids = append(grids, *g)
			}
			g = &textlayout.Table{Title: title, Header: []string{"workload", "target",
				oldLabel + " [interval]", newLabel + " [interval]", "change", "verdict"},
				Left: 2, Groups: true}
			last = ""
		}
		row := rc.Old.Row
		if row == last {
			row = ""
		}
		last = rc.Old.Row
		g.Rows = append(g.Rows, []textlayout.Cell{textlayout.Label(row), textlayout.Label(rc.Old.Col),
			{Text: ratioWithInterval(rc.Old)}, {Text: ratioWithInterval(rc.New)},
			{Text: fmt.Sprintf("%+.1f%%", 100*rc.Change())}, textlayout.Label(rc.Verdict(p))})
		d.Add(rc.Kind(p))
	}
	if g != nil {
		grids = append(grids, *g)
	}
	for i, gr := range grids {
		if i == len(grids)-1 {
			gr.Notes = []string{
				"each ratio paired by pass within its session where its runs allow (see run --baseline);",
				"faster or slower only where the two intervals do not overlap; equivalent where the",
				fmt.Sprintf("change's interval (new's bounds over old's) lies within the resolution %s:",
					report.FormatResolution(p)),
				"no change that matters; else undecided, ~N runs: the runs per cell likely to decide it;",
				fmt.Sprintf("%s at %s", d, report.FormatResolution(p))}
		}
		if err := gr.WriteTextWithin(w, width); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// ratioWithInterval formats a ratio and its interval: "0.73× [0.67–0.99]".
func ratioWithInterval(q report.Ratio) string {
	if math.IsInf(q.Lo, 0) || math.IsInf(q.Hi, 0) {
		return report.FormatRatio(q.Ratio) + " [-]"
	}
	return fmt.Sprintf("%s [%.2f–%.2f]", report.FormatRatio(q.Ratio), q.Lo, q.Hi)
}
