package report

import (
	"math"
	"slices"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// seqResult is a result of budgeted session s whose looks were at conf.
func seqResult(name string, ops float64, s string, conf string) *benchfmt.Result {
	r := sessionResult(name, ops, s)
	r.SetConfig(KeyLookConfidence, conf)
	pos, _ := r.ConfigIndex(KeyLookConfidence)
	r.Config[pos].File = true
	return r
}

// TestSequentialRatiosPairTheLooksRuns: in a budgeted session's file, a
// comparison decided at a look (modernc, 8 runs, all 10% above mattn)
// pairs with the baseline's first 8 runs, though the baseline ran on (its
// later runs, far faster, would otherwise turn the ratio round), at the
// recorded look confidence; and a cell with fewer runs than an interval
// at that confidence needs (7 at 98.75%) has no interval — undecided —
// where a fixed session's file falls back to [min, max].
func TestSequentialRatiosPairTheLooksRuns(t *testing.T) {
	const conf = "0.9875"
	var rs []*benchfmt.Result
	for i := range 16 {
		ops := 1000 + 50*float64(i%3)
		if i >= 8 {
			ops = 5000 // later rounds: faster runs of the baseline only
		}
		rs = append(rs, seqResult("Q/db=sqlite/driver=mattn/api=sql", ops, "abc123", conf))
		if i < 8 {
			rs = append(rs, seqResult("Q/db=sqlite/driver=modernc/api=sql", ops*1.1, "abc123", conf))
		}
		if i < 7 {
			rs = append(rs, seqResult("Q/db=sqlite/driver=crawshaw/api=native", ops*1.3, "abc123", conf))
		}
	}
	qs := New(rs, nil, nil).Tables()[0].Ratios("mattn")
	if len(qs) != 2 {
		t.Fatalf("%d ratios, want 2", len(qs))
	}
	for _, q := range qs {
		switch q.Col {
		case "modernc":
			if q.How != RatioPaired || q.N != 8 || math.Abs(q.Ratio-1.1) > 1e-9 || q.Confidence != 0.9875 ||
				q.Kind(DefaultResolution) != Faster {
				t.Errorf("modernc ÷ mattn: %+v, want paired over the first 8 runs at 98.75%%, faster", q)
			}
		case "crawshaw":
			if q.N != 7 || !math.IsInf(q.Lo, -1) || q.Kind(DefaultResolution) != Undecided {
				t.Errorf("crawshaw ÷ mattn over 7 runs: %+v, want no interval at 98.75%%: undecided", q)
			}
		}
	}
}

func TestLookConfidenceAndIntervalRuns(t *testing.T) {
	if c := LookConfidence(4); math.Abs(c-0.9875) > 1e-12 {
		t.Errorf("4 looks at %g, want 0.9875", c)
	}
	// The order-statistic interval of the median from n runs reaches
	// 1 - 2·0.5^n at most: 6 runs for 95%, 8 for 98.75%.
	for conf, want := range map[float64]int{Confidence: 6, LookConfidence(4): 8, LookConfidence(3): 7} {
		if got := IntervalRuns(conf); got != want {
			t.Errorf("IntervalRuns(%g) = %d, want %d", conf, got, want)
		}
	}
}

// TestLookBoundsSpendNoMoreThanAllowed checks LookBounds against a brute
// force over every sequence of signs (a per-pass ratio below or above the
// true median, each with chance 1/2): up to each look, the share of
// sequences some look's interval misses on is at most the spending
// function's allowance there, and one rank more at that look would
// exceed it (the ranks are the largest allowed).
func TestLookBoundsSpendNoMoreThanAllowed(t *testing.T) {
	for _, sizes := range [][]int{LookSizes(7, 4), LookSizes(8, 3), {6, 12, 18}} {
		bounds := LookBounds(sizes)
		last := sizes[len(sizes)-1]
		missUpTo := func(k int, bounds []int) float64 {
			miss := 0
			for seq := range 1 << last {
				for j := 0; j <= k; j++ {
					n, l := sizes[j], bounds[j]
					below := 0
					for i := range n {
						below += seq >> i & 1
					}
					if l > 0 && (below < l || below > n-l) {
						miss++
						break
					}
				}
			}
			return float64(miss) / float64(int(1)<<last)
		}
		for k := range sizes {
			allowed := SpentAlpha(float64(sizes[k]) / float64(last))
			if m := missUpTo(k, bounds); m > allowed+1e-12 {
				t.Errorf("sizes %v bounds %v: up to look %d missed %g, allowed %g", sizes, bounds, k+1, m, allowed)
			}
			more := slices.Clone(bounds)
			more[k]++
			if 2*more[k] <= sizes[k] {
				if m := missUpTo(k, more); m <= allowed {
					t.Errorf("sizes %v: rank %d at look %d would still be allowed (%g <= %g)", sizes, more[k], k+1, m,
						allowed)
				}
			}
		}
		if m := missUpTo(len(sizes)-1, bounds); m > 1-Confidence {
			t.Errorf("sizes %v: missed %g over all looks, over %g", sizes, m, 1-Confidence)
		}
	}
	// The default design's looks (7 runs, then 4 more each, 5 looks).
	if got := LookBounds(LookSizes(7, 5)); !slices.Equal(got, []int{1, 2, 3, 5, 6}) {
		t.Errorf("default ranks %v", got)
	}
	if c := RankCoverage(8, 1); c != 1-2.0/256 {
		t.Errorf("RankCoverage(8, 1) = %g", c)
	}
}

// TestRankedRatioUsesTheLookReached: with the looks' ranks recorded, a
// comparison decided at the first look (7 runs: [min, max]) pairs with
// the baseline's first 7; one whose runs stopped between looks (9: an
// interrupted round) is read at the look it reached (7); a look of rank
// 0 gives no interval.
func TestRankedRatioUsesTheLookReached(t *testing.T) {
	const bounds = "7:1 11:2 15:4"
	add := func(rs []*benchfmt.Result, name string, ops float64) []*benchfmt.Result {
		r := seqResult(name, ops, "abc123", "0.98")
		r.SetConfig(KeyLookBounds, bounds)
		pos, _ := r.ConfigIndex(KeyLookBounds)
		r.Config[pos].File = true
		return append(rs, r)
	}
	var rs []*benchfmt.Result
	for i := range 15 {
		ops := 1000 + 10*float64(i%4)
		if i >= 7 {
			ops = 9000
		}
		rs = add(rs, "Q/db=sqlite/driver=mattn/api=sql", ops)
		if i < 7 {
			rs = add(rs, "Q/db=sqlite/driver=modernc/api=sql", ops*(1.2+0.01*float64(i)))
		}
		if i < 9 {
			rs = add(rs, "Q/db=sqlite/driver=crawshaw/api=native", ops*0.7)
		}
	}
	for _, q := range New(rs, nil, nil).Tables()[0].Ratios("mattn") {
		switch q.Col {
		case "modernc":
			if q.N != 7 || math.Abs(q.Lo-1.2) > 1e-9 || math.Abs(q.Hi-1.26) > 1e-9 ||
				q.Kind(DefaultResolution) != Faster ||
				q.Confidence != RankCoverage(7, 1) {
				t.Errorf("modernc ÷ mattn %+v, want [1.2, 1.26] over 7 runs, faster", q)
			}
		case "crawshaw":
			if q.N != 7 || math.Abs(q.Ratio-0.7) > 1e-9 || q.Kind(DefaultResolution) != Slower {
				t.Errorf("crawshaw ÷ mattn %+v, want 0.7 over the first look's 7 runs, slower", q)
			}
		}
	}
	q := rankedRatio([]float64{1, 2, 3, 4, 5, 6, 7}, []int{7, 11}, []int{0, 1})
	if !math.IsInf(q.Lo, -1) || q.Kind(DefaultResolution) != Undecided || q.Ratio != 4 {
		t.Errorf("rank 0: %+v, want no interval", q)
	}
}
