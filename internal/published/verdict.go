package published

import (
	"fmt"
	"math"

	"github.com/sqlbench/sqlbench/internal/report"

	"github.com/sqlbench/sqlbench/internal/studies"
)

// Verdicts of a published comparison.
const (
	// VerdictAgrees: every value of the measured interval lies within
	// the resolution (Row.Resolution, by default
	// CrossMachineTolerance) of the published ratio: the measured ratio
	// over the published one is equivalent to 1 (report.Equivalent).
	VerdictAgrees = report.Agrees
	// VerdictDisagrees: no value of it does (the published ratio lies
	// outside the interval widened by the tolerance).
	VerdictDisagrees = report.Disagrees
	// VerdictInconclusive: the interval reaches both inside and outside
	// the resolution: too wide to decide; printed as undecided, the word
	// every comparison uses.
	VerdictInconclusive = report.Undecided
	// VerdictNotMeasured: a side has no results.
	VerdictNotMeasured = report.NotMeasured
)

// CrossMachineTolerance is how far (a factor of 1 + it, either way) a
// ratio measured here may lie from the published one and still be the
// same result: the published studies ran on other machines, operating
// systems, Go and driver versions. docs/reproduce.md gives the reason for
// the value: the go-sqlite-bench program itself, rebuilt and run on this
// repository's machine, gave single-goroutine ratios within a factor of
// 1.02-1.29 of its README's.
const CrossMachineTolerance = 0.3

// judge sets the row's verdict from its measured interval, with the
// study's known cause where it disagrees and, where it is inconclusive,
// the runs that would settle it.
func (row *Row) judge(s *studies.Study) {
	n := min(len(row.NumCell.OpsRuns), len(row.DenCell.OpsRuns))
	row.Runs = n
	row.Verdict, row.Settle = judge(row.Published, row.Lo, row.Measured, row.Hi, n,
		report.ResolutionOr(row.Resolution, CrossMachineTolerance))
	if row.Verdict != VerdictDisagrees {
		return
	}
	e := s.CauseOf(row.Comparison, row.Lo, row.Hi, row.Versions)
	if e.Cause != nil {
		row.Cause = e.Cause.Text
		return
	}
	if len(e.Hypotheses) > 0 {
		row.Hypothesis = e.Hypotheses[0].Text
	}
	switch {
	case len(e.Missed) > 0:
		k := e.Missed[0]
		row.Missed = fmt.Sprintf("outside the ratios the study's cause for it was measured at here, %s (%s; %s): "+
			"the difference is not the one that cause explains, and may be sqlbench's",
			k.RangeText(row.Comparison), k.Sizes, k.Date)
	case len(e.OtherVersions) > 0:
		k := e.OtherVersions[0]
		row.Missed = fmt.Sprintf("the study's cause for it, %s (%s; %s), was measured with %s, not the ones "+
			"this comparison ran: it explains nothing here until measured with them (%s)",
			k.RangeText(row.Comparison), k.Sizes, k.Date, versionsText(k.Versions), versionsFlag(row.Versions))
	}
}

// judge compares the published ratio pub with a measured one (median m,
// confidence interval [lo, hi], from n runs) given the cross-machine
// tolerance tol. The band of ratios that count as the published result is
// [pub/(1+tol), pub*(1+tol)]; the measured interval agrees when it lies
// inside the band, disagrees when it lies wholly outside it (pub outside
// [lo/(1+tol), hi*(1+tol)]), and is inconclusive when it crosses an edge
// of the band. For an inconclusive one, settle is the estimated number of
// runs at which the interval would be decisive: in logarithms, an
// interval narrows about its median as 1/sqrt(runs), so the runs grow
// with the square of how much narrower the side that crosses the band's
// edge must become; -1 when that is more than report.MaxSettleRuns (or the
// Median lies on the edge), 0 when there is no interval to estimate from.
func judge(pub, lo, m, hi float64, n int, tol float64) (verdict string, settle int) {
	if !(pub > 0) || !(m > 0) {
		return VerdictNotMeasured, 0
	}
	if n < 2 || !(lo > 0) || math.IsInf(hi, 0) || math.IsNaN(hi) || lo > m || hi < m {
		return VerdictInconclusive, 0
	}
	x, a, b := math.Log(m), math.Log(lo), math.Log(hi)
	p, t := math.Log(pub), math.Log1p(tol)
	bandLo, bandHi := p-t, p+t
	switch {
	case b < bandLo || a > bandHi:
		return VerdictDisagrees, 0
	case a >= bandLo && b <= bandHi:
		return VerdictAgrees, 0
	}
	// The factor s by which the interval's sides must shrink.
	var s float64
	switch {
	case x < bandLo: // to disagree: the upper side below the band
		s = (bandLo - x) / (b - x)
	case x > bandHi: // the lower side above it
		s = (x - bandHi) / (x - a)
	default: // to agree: both sides inside it
		s = 1
		if a < bandLo {
			s = min(s, (x-bandLo)/(x-a))
		}
		if b > bandHi {
			s = min(s, (bandHi-x)/(b-x))
		}
	}
	if !(s > 0) {
		return VerdictInconclusive, -1
	}
	need := math.Ceil(float64(n) / (s * s))
	if need > report.MaxSettleRuns {
		return VerdictInconclusive, -1
	}
	return VerdictInconclusive, max(int(need), n+1)
}

// VerdictText is the row's verdict as the tables print it: an
// inconclusive one with the runs that would settle it, a disagreement no
// measured cause applies to as "disagrees — no known cause".
func (row *Row) VerdictText() string {
	if row.Verdict == VerdictDisagrees && row.Cause == "" {
		return VerdictDisagrees + " — no known cause"
	}
	if row.Verdict != VerdictInconclusive {
		return row.Verdict
	}
	switch {
	case row.Settle > 0:
		return fmt.Sprintf("undecided, ~%d runs", row.Settle)
	case row.Settle < 0:
		return fmt.Sprintf("undecided, >%d runs", report.MaxSettleRuns)
	case row.Runs < 2:
		return "undecided, 1 run"
	}
	return "undecided, no interval"
}

// VerdictNote says how the verdicts are reached at the default resolution
// (CrossMachineTolerance): VerdictNoteAt.
func VerdictNote() string { return VerdictNoteAt(CrossMachineTolerance) }

// VerdictNoteAt says how the verdicts are reached at resolution tol (0:
// CrossMachineTolerance): the resolution, with the reason for its default,
// and how the runs that would settle an undecided one are estimated.
func VerdictNoteAt(tol float64) string {
	tol = report.ResolutionOr(tol, CrossMachineTolerance)
	return fmt.Sprintf("Verdicts: agrees = equivalent to the published ratio, every value of the measured interval "+
		"within the resolution %s (a factor of %.2f either way, --resolution) of it; disagrees = none (the published "+
		"ratio outside the interval widened by that factor), with the likely cause where a measured one "+
		"applies (its range measured here reaches the interval), else \"no known cause\", a hypothesis "+
		"printed as one; "+
		"undecided = the interval crosses that bound, with the runs per cell (--count) at which it "+
		"would decide, estimated from the observed interval narrowing as 1/√runs about its median. "+
		"The default resolution, ±%.0f%%, is for the other machine, OS, Go and driver versions: the go-sqlite-bench "+
		"program itself, run here, gave single-goroutine ratios within a factor of 1.02-1.29 of its "+
		"README's (docs/reproduce.md).", report.FormatResolution(tol), 1+tol, 100*CrossMachineTolerance)
}

// versionsText names driver versions (studies.VersionsPinned or
// VersionsPeriod) in a sentence.
func versionsText(v string) string {
	if v == studies.VersionsPinned {
		return "the driver versions sqlbench's go.mod pins"
	}
	return "the study's own driver versions"
}

// versionsFlag says how a session runs the versions other than v.
func versionsFlag(v string) string {
	if v == studies.VersionsPinned {
		return "reproduce's default, --versions published, runs the study's own"
	}
	return "--versions pinned runs go.mod's"
}
