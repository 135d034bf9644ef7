package report

import (
	"math"
	"slices"
	"strconv"

	"golang.org/x/perf/benchmath"
)

// The results-file lines of a budgeted session (a group-sequential design:
// session.Design), read back by the ratio tables so that a report of the
// file reaches the verdicts the session reached.
const (
	// KeyLookConfidence is the confidence of every ratio interval the
	// session looked at (1 - α/K for K looks): the ratio tables compute
	// the file's ratios at it, with no fallback to a lower level.
	KeyLookConfidence = "look-confidence"
	// KeyLooks is the number of looks the session planned (K).
	KeyLooks = "looks"
	// KeyBudget is the measuring time the session was given (--budget).
	KeyBudget = "budget"
)

// LookConfidence is the confidence of each of looks looks at the data
// that keeps the chance of any false verdict of a comparison, over all
// of them, within 1 - Confidence (the union bound: Bonferroni).
func LookConfidence(looks int) float64 {
	return 1 - (1-Confidence)/float64(max(looks, 1))
}

// IntervalRuns is the fewest runs whose median has a distribution-free
// (order-statistic) interval at confidence conf: the first stage a
// budgeted session needs for any verdict at its looks' confidence.
func IntervalRuns(conf float64) int {
	for n := 2; n < 1000; n++ {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(i + 1)
		}
		s := benchmath.AssumeNothing.Summary(benchmath.NewSample(vals, &benchmath.DefaultThresholds), conf)
		if !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) {
			return n
		}
	}
	return 1000
}

// lookConfidence is the look confidence a cell's results file recorded
// (KeyLookConfidence), or 0 when it is not of a budgeted session.
func lookConfidence(c *Cell) float64 {
	for _, kv := range c.Config {
		if kv.Key == KeyLookConfidence {
			if v, err := strconv.ParseFloat(kv.Value, 64); err == nil && v > 0 && v < 1 {
				return v
			}
		}
	}
	return 0
}

// sequentialPrefix returns how many leading runs of n and d pair when both
// are of one budgeted session: every run with the session's id, the
// shorter's sessions those the longer began with. A comparison decided at
// a look stops getting runs while its baseline may go on for the others:
// its runs pair with the baseline's first ones, of the same passes, which
// are the look's data. 0 when they do not pair so.
func sequentialPrefix(n, d *Cell) int {
	m := min(len(n.OpsRuns), len(d.OpsRuns))
	if m == 0 || len(n.RunSessions) != len(n.OpsRuns) || len(d.RunSessions) != len(d.OpsRuns) ||
		!slices.Equal(n.RunSessions[:m], d.RunSessions[:m]) || slices.Contains(n.RunSessions[:m], "") {
		return 0
	}
	return m
}

// sequentialRatio is n's ops/s over d's for cells of a budgeted session
// whose looks were at conf: paired over their common runs when they pair
// (sequentialPrefix), its interval at conf with no fallback to [min, max]
// at a lower level (too few runs: no interval, undecided); else unpaired,
// its bootstrap interval at conf.
func sequentialRatio(n, d *Cell, conf float64) Ratio {
	if m := sequentialPrefix(n, d); m > 0 {
		ratios := make([]float64, m)
		for i := range ratios {
			ratios[i] = n.OpsRuns[i] / d.OpsRuns[i]
		}
		sum := benchmath.AssumeNothing.Summary(benchmath.NewSample(ratios, &benchmath.DefaultThresholds), conf)
		q := Ratio{Ratio: sum.Center, Lo: sum.Lo, Hi: sum.Hi, Confidence: conf, How: RatioPaired, N: m}
		if math.IsInf(q.Lo, 0) || math.IsInf(q.Hi, 0) {
			q.Lo, q.Hi, q.Confidence = math.Inf(-1), math.Inf(1), 0
		}
		return q
	}
	q := Ratio{Ratio: Median(n.OpsRuns) / Median(d.OpsRuns), Lo: math.Inf(-1), Hi: math.Inf(1), How: RatioUnpaired,
		N: min(len(n.OpsRuns), len(d.OpsRuns))}
	if q.N >= 2 {
		q.Lo, q.Hi = bootstrapRatioAt(n.OpsRuns, d.OpsRuns, conf)
		q.Confidence = conf
	}
	return q
}
