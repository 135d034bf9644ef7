// Package changepoint finds the points where a series of measurements
// shifts, with the E-Divisive means method of Matteson and James ("A
// Nonparametric Approach for Multiple Change Point Analysis of Multivariate
// Data", JASA 109(505), 2014) and its permutation test for significance: the
// method MongoDB's performance CI and Apache Otava (formerly Hunter) run over
// their benchmark history. docs/methodology.md describes it.
package changepoint

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// Options tune Detect; the zero value takes the defaults.
type Options struct {
	// Significance is the largest permutation p-value a change point may
	// have; 0 means DefaultSignificance.
	Significance float64
	// Permutations is how many permutations each test draws; 0 means
	// DefaultPermutations.
	Permutations int
	// MinSize is the fewest points a segment may have; 0 means
	// DefaultMinSize.
	MinSize int
	// Alpha is the exponent of the distances, in (0, 2); 0 means
	// DefaultAlpha.
	Alpha float64
	// Seed seeds the permutations, so that a series gives the same
	// answer every time.
	Seed uint64
}

// Defaults of Options.
const (
	DefaultSignificance = 0.01
	DefaultPermutations = 199
	DefaultMinSize      = 4
	DefaultAlpha        = 1
)

// Point is a change point: the series' values from Index on differ in
// distribution from those before it, back to the previous change point.
type Point struct {
	// Index is the first point after the change.
	Index int
	// Q is the divergence statistic of the split (the energy distance
	// between the two sides, scaled by their sizes).
	Q float64
	// P is the permutation test's p-value.
	P float64
}

// Detect returns the significant change points of xs, in index order. It
// splits the series hierarchically: at each step it finds, in every
// segment between the change points found so far, the split that
// maximizes Q, takes the largest, and keeps it when a permutation test
// (the values permuted within each segment) finds a Q as large in at most
// Significance of the permutations; it stops at the first split that is
// not significant.
func Detect(xs []float64, o Options) []Point {
	o.Significance = cmp.Or(o.Significance, DefaultSignificance)
	o.Permutations = cmp.Or(o.Permutations, DefaultPermutations)
	o.MinSize = max(cmp.Or(o.MinSize, DefaultMinSize), 2)
	o.Alpha = cmp.Or(o.Alpha, DefaultAlpha)
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	bounds := []int{0, len(xs)} // segment starts, then len(xs)
	var found []Point
	for {
		best, bestQ, seg := -1, math.Inf(-1), -1
		for s := 0; s+1 < len(bounds); s++ {
			if tau, q := bestSplit(xs[bounds[s]:bounds[s+1]], o.MinSize, o.Alpha); tau >= 0 && q > bestQ {
				best, bestQ, seg = bounds[s]+tau, q, s
			}
		}
		if seg < 0 {
			break
		}
		perm := slices.Clone(xs)
		exceed := 0
		for range o.Permutations {
			maxQ := math.Inf(-1)
			for s := 0; s+1 < len(bounds); s++ {
				part := perm[bounds[s]:bounds[s+1]]
				rng.Shuffle(len(part), func(i, j int) { part[i], part[j] = part[j], part[i] })
				if _, q := bestSplit(part, o.MinSize, o.Alpha); q > maxQ {
					maxQ = q
				}
			}
			if maxQ >= bestQ {
				exceed++
			}
		}
		p := float64(exceed+1) / float64(o.Permutations+1)
		if p > o.Significance {
			break
		}
		found = append(found, Point{Index: best, Q: bestQ, P: p})
		bounds = append(bounds, best)
		slices.Sort(bounds)
	}
	slices.SortFunc(found, func(a, b Point) int { return a.Index - b.Index })
	return found
}

// bestSplit returns the split tau of z (z[:tau] against z[tau:], each at
// least minSize long) that maximizes the E-Divisive statistic (alpha = 1)
//
//	Q(tau) = tau(n-tau)/n * (2/(tau(n-tau)) Σ|x-y| - Σ|x-x'|/C(tau,2) - Σ|y-y'|/C(n-tau,2)),
//
// and that Q; -1 when z is too short to split. The three sums for every
// tau come from the pairwise distances in O(n²): the pairs within the left
// side grow by one column as tau moves right, those within the right side
// shrink by one row, and the pairs across are the rest.
func bestSplit(z []float64, minSize int, alpha float64) (int, float64) {
	n := len(z)
	if n < 2*minSize {
		return -1, math.Inf(-1)
	}
	// left[t] is the sum of |z_i - z_j| over i < j < t; right[t] over
	// t <= i < j.
	left := make([]float64, n+1)
	right := make([]float64, n+1)
	for t := 1; t <= n; t++ {
		s := 0.0
		for i := 0; i < t-1; i++ {
			s += dist(z[i], z[t-1], alpha)
		}
		left[t] = left[t-1] + s
	}
	for t := n - 1; t >= 0; t-- {
		s := 0.0
		for j := t + 1; j < n; j++ {
			s += dist(z[t], z[j], alpha)
		}
		right[t] = right[t+1] + s
	}
	total := left[n]
	best, bestQ := -1, math.Inf(-1)
	for tau := minSize; tau <= n-minSize; tau++ {
		a, b := float64(tau), float64(n-tau)
		across := total - left[tau] - right[tau]
		q := a * b / float64(n) * (2*across/(a*b) - left[tau]/(a*(a-1)/2) - right[tau]/(b*(b-1)/2))
		if q > bestQ {
			best, bestQ = tau, q
		}
	}
	return best, bestQ
}

// dist is |x - y|^alpha.
func dist(x, y, alpha float64) float64 {
	d := math.Abs(x - y)
	if alpha == 1 {
		return d
	}
	return math.Pow(d, alpha)
}
