package report

import (
	"math"
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
