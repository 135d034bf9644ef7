package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The kinds of verdict a ratio comparison ends in (Classify).
const (
	// Faster: the whole interval lies above 1 and reaches past the
	// resolution.
	Faster = "faster"
	// Slower: the whole interval lies below 1 and reaches past the
	// resolution.
	Slower = "slower"
	// Equivalent: the interval lies wholly within the resolution,
	// [1/(1+P), 1+P]: no difference that matters, whether or not the
	// interval holds 1 (a real difference smaller than the resolution is
	// still one the user said does not matter).
	Equivalent = "equivalent"
	// Undecided: the interval holds 1 and reaches past the resolution, or
	// there is no interval (too few runs).
	Undecided = "undecided"
)

// The kinds of verdict a comparison with a published ratio ends in
// (internal/published says when), counted by Decisions beside the above.
const (
	// Agrees: the measured ratio over the published one is equivalent to 1.
	Agrees = "agrees"
	// Disagrees: the published ratio lies outside the measured interval
	// widened by the resolution.
	Disagrees = "disagrees"
	// NotMeasured: a side has no results; not counted.
	NotMeasured = "not measured"
)

// MaxSettleRuns is the most runs an inconclusive verdict estimates (the
// largest --count); beyond it the verdict says "more than".
const MaxSettleRuns = 1000

// DefaultResolution is the resolution of ratio comparisons (ratio tables,
// compare) when none is asked for: a difference below 5% either way is no
// difference that matters. docs/methodology.md gives the reasoning: near
// the run-to-run noise of this kind of work, reachable within the runs of a
// session, and the threshold benchstat's users commonly take as noise.
const DefaultResolution = 0.05

// ResolutionOr returns p, or def when p is 0 (not set).
func ResolutionOr(p, def float64) float64 {
	if p == 0 {
		return def
	}
	return p
}

// ParseResolution reads a --resolution value: a fraction ("0.05") or a
// percentage ("5%"), above 0 and below 1 (100%).
func ParseResolution(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	if err != nil {
		return 0, fmt.Errorf("want a fraction or a percentage above 0 and below 1 (e.g. 0.05 or 5%%), got %q", s)
	}
	if pct {
		v /= 100
	}
	if !(v > 0 && v < 1) {
		return 0, fmt.Errorf("must be above 0 and below 1 (100%%), got %q", s)
	}
	return v, nil
}

// FormatResolution writes a resolution as a percentage: "±5%".
func FormatResolution(p float64) string {
	return "±" + strconv.FormatFloat(100*p, 'f', -1, 64) + "%"
}

// Classify is the verdict kind of a ratio with interval [lo, hi] at
// resolution p: Equivalent when the interval lies wholly within
// [1/(1+p), 1+p] (an equivalence test in the manner of Schuirmann's two
// one-sided tests, at the interval's confidence), else Faster or Slower
// when it excludes 1, else Undecided, which is also the kind of a ratio
// without an interval (infinite or missing bounds). Equivalence comes
// first, as in a region of practical equivalence: an interval such as
// [1.01, 1.04] at ±5% says the difference, real or not, is smaller than
// the one the user cares about, and a ratio is called faster or slower
// only when its interval reaches past the resolution. Each kind is wrong
// with probability at most that of the interval missing the true ratio.
func Classify(lo, hi, p float64) string {
	if !HasInterval(lo, hi) {
		return Undecided
	}
	switch {
	case lo >= 1/(1+p) && hi <= 1+p:
		return Equivalent
	case lo > 1:
		return Faster
	case hi < 1:
		return Slower
	}
	return Undecided
}

// HasInterval reports whether [lo, hi] is an interval a verdict can be
// read from: finite, positive, in order.
func HasInterval(lo, hi float64) bool {
	return lo > 0 && !math.IsInf(hi, 0) && !math.IsNaN(hi) && lo <= hi
}

// SettleRuns estimates the runs (per cell) at which an undecided ratio
// (median m, interval [lo, hi] from n runs) would be decided at resolution
// p: whichever comes first of its interval excluding 1 and its interval
// fitting within [1/(1+p), 1+p]. In logarithms the interval narrows about
// its median as 1/√runs, so each side's distance from the median shrinks by
// a factor s at n/s² runs; excluding 1 needs the side that crosses 1 to
// shrink to the median's distance from 1, fitting needs both sides to
// shrink inside the band, possible only when the median lies within it.
// It is -1 when neither happens within MaxSettleRuns (a median at or near 1
// with a band far narrower than the interval), 0 when there is no interval
// or the ratio is already decided.
func SettleRuns(m, lo, hi float64, n int, p float64) int {
	if n < 2 || !HasInterval(lo, hi) || !(m >= lo && m <= hi) || Classify(lo, hi, p) != Undecided {
		return 0
	}
	x, a, b, t := math.Log(m), math.Log(lo), math.Log(hi), math.Log1p(p)
	s := 0.0 // the largest factor that decides: the fewest runs
	switch {
	case x > 0 && x > a: // excluding 1 from above
		s = x / (x - a)
	case x < 0 && b > x: // from below
		s = -x / (b - x)
	}
	if x > -t && x < t { // fitting within the band
		fit := 1.0
		if a < -t {
			fit = min(fit, (x+t)/(x-a))
		}
		if b > t {
			fit = min(fit, (t-x)/(b-x))
		}
		s = max(s, fit)
	}
	if !(s > 0) {
		return -1
	}
	need := math.Ceil(float64(n) / (s * s))
	if need > MaxSettleRuns {
		return -1
	}
	return max(int(need), n+1)
}

// VerdictText is a verdict kind as the tables print it: an undecided one
// with the runs per cell that would settle it (settle, as settleRuns), or
// "1 run" / "no interval" when there is nothing to estimate from.
func VerdictText(kind string, settle, n int) string {
	if kind != Undecided {
		return kind
	}
	switch {
	case settle > 0:
		return fmt.Sprintf("undecided, ~%d runs", settle)
	case settle < 0:
		return fmt.Sprintf("undecided, >%d runs", MaxSettleRuns)
	case n < 2:
		return "undecided, 1 run"
	}
	return "undecided, no interval"
}

// Decisions counts the verdicts of a set of comparisons by kind: ratio
// comparisons (faster, slower, equivalent) or reproduce's published ones
// (agrees, disagrees), and the undecided.
type Decisions struct {
	Faster, Slower, Equivalent, Undecided int
	Agrees, Disagrees                     int
	// Published says the comparisons are reproduce's published ones
	// (String says agree and disagree even when none is decided).
	Published bool
}

// Add counts one verdict of kind (Faster, Slower, Equivalent, Agrees,
// Disagrees or Undecided; NotMeasured is not counted).
func (d *Decisions) Add(kind string) {
	switch kind {
	case Faster:
		d.Faster++
	case Slower:
		d.Slower++
	case Equivalent:
		d.Equivalent++
	case Agrees:
		d.Agrees++
	case Disagrees:
		d.Disagrees++
	case NotMeasured:
	default:
		d.Undecided++
	}
}

// Total is the number of comparisons counted.
func (d Decisions) Total() int { return d.Decided() + d.Undecided }

// Decided is the number decided: faster, slower or equivalent; agrees or
// disagrees.
func (d Decisions) Decided() int { return d.Faster + d.Slower + d.Equivalent + d.Agrees + d.Disagrees }

// String says how many were decided and how:
// "41 of 57 decided: 12 faster, 9 slower, 20 equivalent; 16 undecided"
// (or "..., 9 agree, 2 disagree; ..." for published comparisons).
func (d Decisions) String() string {
	if d.Published || d.Agrees+d.Disagrees > 0 && d.Faster+d.Slower+d.Equivalent == 0 {
		return fmt.Sprintf("%d of %d decided: %d agree, %d disagree; %d undecided",
			d.Decided(), d.Total(), d.Agrees, d.Disagrees, d.Undecided)
	}
	return fmt.Sprintf("%d of %d decided: %d faster, %d slower, %d equivalent; %d undecided",
		d.Decided(), d.Total(), d.Faster, d.Slower, d.Equivalent, d.Undecided)
}

// resolution is the report's resolution of its ratio comparisons:
// Report.Resolution, or DefaultResolution when that is 0.
func (r *Report) resolution() float64 { return ResolutionOr(r.Resolution, DefaultResolution) }

// ratioTables is the number of the report's tables with a ratio table.
func (r *Report) ratioTables() int {
	n := 0
	for _, t := range r.Tables() {
		if base, ok := t.BaselineOf(r.Baseline); ok && len(t.Ratios(base)) > 0 {
			n++
		}
	}
	return n
}

// RatioDecisions counts the verdicts of every ratio in the report's ratio
// tables (every table with a baseline, Report.Baseline, at the report's
// resolution): what the ratio tables and a session's summary say in one
// line (Decisions.String). ok is false when the report has no ratio table.
func (r *Report) RatioDecisions() (d Decisions, ok bool) {
	p := r.resolution()
	for _, t := range r.Tables() {
		base, has := t.BaselineOf(r.Baseline)
		if !has {
			continue
		}
		for _, q := range t.Ratios(base) {
			ok = true
			d.Add(q.Kind(p))
		}
	}
	return d, ok
}
