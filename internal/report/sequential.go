package report

import (
	"math"
	"slices"
	"strconv"
	"strings"

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
// (sequentialPrefix), its interval that of the look they reached where the
// file records the looks' ranks (KeyLookBounds: rankedRatio), else at conf with no fallback to [min, max]
// at a lower level (too few runs: no interval, undecided); else unpaired,
// its bootstrap interval at conf.
func sequentialRatio(n, d *Cell, conf float64) Ratio {
	if m := sequentialPrefix(n, d); m > 0 {
		ratios := make([]float64, m)
		for i := range ratios {
			ratios[i] = n.OpsRuns[i] / d.OpsRuns[i]
		}
		if sizes, bounds := lookBounds(n); sizes != nil {
			return rankedRatio(ratios, sizes, bounds) // the looks' own ranks (KeyLookBounds)
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

// KeyLookBounds records a budgeted session's looks as "size:rank" pairs
// ("7:1 11:2 15:4"): at the look after size runs per cell, a paired ratio's
// interval runs from the rank-th smallest of the per-pass ratios to the
// rank-th largest (rank 0: no interval at that look). LookBounds gives the
// ranks; a file with this line has its paired ratios computed from it.
const KeyLookBounds = "look-bounds"

// LookSizes are the runs per cell at each of looks looks after a first
// stage of first runs: equal steps of half the first stage (7, 11, 15, ...
// for 7), so that a round is small enough to fit in what is left of a
// budget.
func LookSizes(first, looks int) []int {
	step := (first + 1) / 2
	sizes := make([]int, max(looks, 1))
	for k := range sizes {
		sizes[k] = first + k*step
	}
	return sizes
}

// SpentAlpha is the error rate a group-sequential design may have spent
// by information fraction t (runs so far over the last look's): Lan and
// DeMets' Pocock-type spending function α·ln(1 + (e − 1)·t), α = 1 −
// Confidence. It spends early, where a budgeted session decides most.
func SpentAlpha(t float64) float64 {
	return (1 - Confidence) * math.Log(1+(math.E-1)*min(max(t, 0), 1))
}

// LookBounds returns, for looks at sizes (increasing runs per cell), the
// largest rank l_k at each look such that the chance of any look's order-
// statistic interval [X(l_k), X(n_k+1-l_k)] of the per-pass ratios missing
// their true median, up to and including look k, is at most
// SpentAlpha(n_k / n_K). The chance is exact for independent per-pass
// ratios with a continuous distribution: the number of ratios below the
// true median is then a symmetric binomial random walk over the runs, and
// an interval misses exactly when the walk is below l_k or above n_k - l_k
// at look k; the walk's distribution, less the paths that already missed,
// is carried from look to look. Rank 0 means no interval at that look.
func LookBounds(sizes []int) []int {
	if len(sizes) == 0 {
		return nil
	}
	last := float64(sizes[len(sizes)-1])
	dist := []float64{1} // P(walk at s, no miss so far)
	n, missed := 0, 0.0
	bounds := make([]int, len(sizes))
	for k, nk := range sizes {
		for ; n < nk; n++ {
			next := make([]float64, len(dist)+1)
			for s, p := range dist {
				next[s] += p / 2
				next[s+1] += p / 2
			}
			dist = next
		}
		allowed := SpentAlpha(float64(nk)/last) + 1e-12
		for l := 1; 2*l <= nk; l++ {
			if missed+tailMass(dist, l, nk) > allowed {
				break
			}
			bounds[k] = l
		}
		if l := bounds[k]; l > 0 {
			missed += tailMass(dist, l, nk)
			for s := range dist {
				if s < l || s > nk-l {
					dist[s] = 0
				}
			}
		}
	}
	return bounds
}

// tailMass is the mass of dist (over 0..n) below l or above n-l.
func tailMass(dist []float64, l, n int) float64 {
	m := 0.0
	for s, p := range dist {
		if s < l || s > n-l {
			m += p
		}
	}
	return m
}

// RankCoverage is the coverage of the order-statistic interval [X(l),
// X(n+1-l)] of a median from n independent runs on its own: 1 − 2·P(B <
// l), B binomial(n, 1/2). 0 when l is 0 (no interval).
func RankCoverage(n, l int) float64 {
	if l < 1 || 2*l > n+1 {
		return 0
	}
	tail, c := 0.0, 1.0 // c = C(n, s)
	for s := 0; s < l; s++ {
		tail += c
		c = c * float64(n-s) / float64(s+1)
	}
	return 1 - 2*tail*math.Pow(0.5, float64(n))
}

// FormatLookBounds writes sizes and their ranks as the KeyLookBounds line
// has them.
func FormatLookBounds(sizes, bounds []int) string {
	parts := make([]string, len(sizes))
	for i := range sizes {
		parts[i] = strconv.Itoa(sizes[i]) + ":" + strconv.Itoa(bounds[i])
	}
	return strings.Join(parts, " ")
}

// lookBounds is the looks a cell's results file recorded (KeyLookBounds):
// sizes and ranks, nil when it records none or one that does not parse.
func lookBounds(c *Cell) (sizes, bounds []int) {
	for _, kv := range c.Config {
		if kv.Key != KeyLookBounds {
			continue
		}
		for _, f := range strings.Fields(kv.Value) {
			a, b, ok := strings.Cut(f, ":")
			n, err1 := strconv.Atoi(a)
			l, err2 := strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil || n < 1 || l < 0 || 2*l > n+1 ||
				len(sizes) > 0 && n <= sizes[len(sizes)-1] {
				return nil, nil
			}
			sizes, bounds = append(sizes, n), append(bounds, l)
		}
	}
	return sizes, bounds
}

// rankedRatio is the paired ratio of a budgeted session's look: of the
// per-pass ratios, the first n of the largest look size n at most m (the
// look the comparison's runs reached), their median with the interval
// from the l-th smallest to the l-th largest (l that look's rank). No
// interval (undecided) below the first look or at a rank of 0.
func rankedRatio(ratios []float64, sizes, bounds []int) Ratio {
	k := -1
	for i, n := range sizes {
		if n <= len(ratios) {
			k = i
		}
	}
	q := Ratio{Lo: math.Inf(-1), Hi: math.Inf(1), How: RatioPaired, N: len(ratios)}
	if k < 0 {
		q.Ratio = Median(ratios)
		return q
	}
	n, l := sizes[k], bounds[k]
	look := slices.Clone(ratios[:n])
	slices.Sort(look)
	q.Ratio, q.N = Median(look), n
	if l > 0 {
		q.Lo, q.Hi, q.Confidence = look[l-1], look[n-l], RankCoverage(n, l)
	}
	return q
}

// LookedRatio is n's ops/s over d's in a budgeted session, read at the last
// look both cells reached with that look's rank bounds (the results' look-
// bounds line); ok is false when the cells were not measured by a budgeted
// design that recorded its bounds.
func LookedRatio(n, d *Cell) (q Ratio, ok bool) {
	sizes, bounds := lookBounds(n)
	if sizes == nil || len(d.OpsRuns) == 0 || slices.Min(d.OpsRuns) <= 0 {
		return Ratio{}, false
	}
	m := sequentialPrefix(n, d)
	if m <= 0 {
		return Ratio{}, false
	}
	ratios := make([]float64, m)
	for i := range ratios {
		ratios[i] = n.OpsRuns[i] / d.OpsRuns[i]
	}
	return rankedRatio(ratios, sizes, bounds), true
}
