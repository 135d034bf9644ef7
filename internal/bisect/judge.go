package bisect

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"

	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// Cells are the three cells of one probe's session, one workload each: the
// good end, the candidate and the bad end, measured in the same
// interleaved passes.
type Cells struct {
	Good, Candidate, Bad *report.Cell
}

// ErrEndsAlike is returned (wrapped) when a probe's session shows no
// difference between the ends in an exact measure: there is nothing to
// bisect.
var ErrEndsAlike = fmt.Errorf("the good and the bad end do not differ")

// exactGap is the share of the gap between the ends within which a
// candidate's median of an exact measure is taken as like the nearer end:
// equal to it, or nearer to it by a clear margin (within a quarter of the
// gap, thus at least three times nearer to it than to the other end).
const exactGap = 0.25

// JudgeExact judges the candidate by a deterministic measure (allocs/op,
// B/op): like the end whose median it equals, or lies within a quarter of
// the ends' gap of, else undecided (it changed part of the way: a change
// in two steps). Ends with equal medians are ErrEndsAlike. The step's
// ratio is the candidate's over the good end's, the median of the
// per-pass ratios with its interval.
func JudgeExact(unit string, c Cells) (Step, error) {
	g, okg := c.Good.Medians[unit]
	k, okc := c.Candidate.Medians[unit]
	b, okb := c.Bad.Medians[unit]
	if !okg || !okc || !okb {
		return Step{}, fmt.Errorf("the results hold no %s for every target (a runner that does not measure it)", unit)
	}
	if g == b {
		return Step{}, fmt.Errorf("%w in %s (both %s)", ErrEndsAlike, unit, textlayout.FormatValue(g))
	}
	st := Step{Verdict: Undecided, Detail: fmt.Sprintf("%s %s; good %s, bad %s",
		textlayout.FormatValue(k), unit, textlayout.FormatValue(g), textlayout.FormatValue(b))}
	gap := math.Abs(b - g)
	switch {
	case k == g || math.Abs(k-g) <= exactGap*gap:
		st.Verdict = LikeGood
	case k == b || math.Abs(k-b) <= exactGap*gap:
		st.Verdict = LikeBad
	}
	st.Ratio, st.Lo, st.Hi, st.Confidence = pairedRatio(c.Candidate.Values[unit], c.Good.Values[unit])
	e := &st.Ends
	e.Ratio, e.Lo, e.Hi, e.Confidence = pairedRatio(c.Bad.Values[unit], c.Good.Values[unit])
	return st, nil
}

// pairedRatio is the median of num[i]/den[i] with its distribution-free
// interval (benchmath, as the reports' cells), or the ratio of the
// medians without one when the runs do not pair.
func pairedRatio(num, den []float64) (ratio, lo, hi, conf float64) {
	if len(num) == 0 || len(num) != len(den) {
		return 0, 0, 0, 0
	}
	rs := make([]float64, 0, len(num))
	for i := range num {
		if den[i] == 0 {
			return 0, 0, 0, 0
		}
		rs = append(rs, num[i]/den[i])
	}
	sample := benchmath.NewSample(rs, &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(sample, report.Confidence)
	if len(rs) >= 2 && (math.IsInf(sum.Lo, 0) || math.IsInf(sum.Hi, 0)) {
		// [min, max] covers the median with probability 1 - 2 * 0.5^n.
		sum = benchmath.AssumeNothing.Summary(sample, 1-2*math.Pow(0.5, float64(len(rs)))-1e-9)
	}
	if math.IsInf(sum.Lo, 0) || math.IsInf(sum.Hi, 0) {
		return sum.Center, 0, 0, 0
	}
	return sum.Center, sum.Lo, sum.Hi, sum.Confidence
}

// JudgeTime judges the candidate by its time, from the paired ratios of
// one session (ops/s over a baseline, report.Ratio): vsGood is the
// candidate's over the good end's, vsBad over the bad end's, badVsGood the
// bad end's over the good end's. At resolution p (report.Classify) it is
// like the good end when equivalent to it and different (faster or
// slower) from the bad one, like the bad end the other way round, and
// undecided otherwise, among them when the ends themselves do not differ
// in this session. Where the ends differ by much more than p, equivalence
// within p of one end asks for more runs than the question needs: there
// the candidate is also like the end on whose side of the halfway mark
// (the geometric middle of the ends' change, taken at the interval's end
// nearest no change) its whole interval lies, while it differs from the
// other end (halfway).
func JudgeTime(vsGood, vsBad, badVsGood report.Ratio, p float64) Step {
	kg, kb, ends := vsGood.Kind(p), vsBad.Kind(p), badVsGood.Kind(p)
	differs := func(k string) bool { return k == report.Faster || k == report.Slower }
	st := Step{Verdict: Undecided,
		Detail: fmt.Sprintf("ops/s vs good %s %s, vs bad %s %s; bad vs good %s %s",
			ratioText(vsGood), kg, ratioText(vsBad), kb, ratioText(badVsGood), ends),
		Ratio: vsGood.Ratio, Confidence: vsGood.Confidence}
	if !math.IsInf(vsGood.Lo, 0) && !math.IsInf(vsGood.Hi, 0) {
		st.Lo, st.Hi = vsGood.Lo, vsGood.Hi
	}
	st.Ends = Ratio{Ratio: badVsGood.Ratio, Confidence: badVsGood.Confidence}
	if !math.IsInf(badVsGood.Lo, 0) && !math.IsInf(badVsGood.Hi, 0) {
		st.Ends.Lo, st.Ends.Hi = badVsGood.Lo, badVsGood.Hi
	}
	switch {
	case !differs(ends):
	case kg == report.Equivalent && differs(kb):
		st.Verdict = LikeGood
	case kb == report.Equivalent && differs(kg):
		st.Verdict = LikeBad
	default:
		st.Verdict = halfway(vsGood, vsBad, badVsGood, kg, kb)
	}
	return st
}

// halfway judges a candidate between ends that differ (badVsGood decided)
// by the side of the halfway mark its intervals lie on, in log space: with
// d the ends' change nearest no change (the interval's bound closest to
// 1), it is like the good end when its change from the good end stays
// within d/2 and it differs from the bad end, and like the bad end when its
// change from the bad end stays within d/2 the other way and it differs
// from the good end. Both intervals are the session's paired ratios at its
// confidence, as Classify's are, so the verdict is no weaker than theirs.
func halfway(vsGood, vsBad, badVsGood report.Ratio, kg, kb string) string {
	finite := func(q report.Ratio) bool {
		return q.Lo > 0 && q.Hi > 0 && !math.IsInf(q.Lo, 0) && !math.IsInf(q.Hi, 0)
	}
	if !finite(vsGood) || !finite(vsBad) || !finite(badVsGood) {
		return Undecided
	}
	differs := func(k string) bool { return k == report.Faster || k == report.Slower }
	d := math.Log(badVsGood.Hi) // a slowdown: ratios of ops/s below 1
	if badVsGood.Lo > 1 {
		d = math.Log(badVsGood.Lo) // a speed-up
	}
	if d == 0 || badVsGood.Lo <= 1 && badVsGood.Hi >= 1 {
		return Undecided
	}
	g := [2]float64{math.Log(vsGood.Lo), math.Log(vsGood.Hi)}
	b := [2]float64{math.Log(vsBad.Lo), math.Log(vsBad.Hi)}
	if d < 0 {
		switch {
		case g[0] > d/2 && differs(kb):
			return LikeGood
		case b[1] < -d/2 && differs(kg):
			return LikeBad
		}
		return Undecided
	}
	switch {
	case g[1] < d/2 && differs(kb):
		return LikeGood
	case b[0] > -d/2 && differs(kg):
		return LikeBad
	}
	return Undecided
}

// ratioText is a ratio with its interval: "0.97× [0.91–1.02×]".
func ratioText(q report.Ratio) string {
	return report.FormatRatio(q.Ratio) + " [" + report.FormatRatioInterval(q) + "]"
}
