package bisect

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"testing"

	"github.com/sqlbench/sqlbench/internal/report"
)

// truth is a fake measure: candidate i is like bad from culprit on.
func truth(culprit int, undecided map[int]bool) Probe {
	return func(_ context.Context, i int) (Step, error) {
		switch {
		case undecided[i]:
			return Step{Verdict: Undecided}, nil
		case i >= culprit:
			return Step{Verdict: LikeBad}, nil
		}
		return Step{Verdict: LikeGood}, nil
	}
}

// TestSearchFindsEveryPosition: for every list length up to 40 and every
// position of the change, the search names it within ceil(log2(n))
// probes, and never probes the bad end.
func TestSearchFindsEveryPosition(t *testing.T) {
	for n := 1; n <= 40; n++ {
		for culprit := 0; culprit < n; culprit++ {
			o, err := Search(context.Background(), n, 0, truth(culprit, nil))
			if err != nil {
				t.Fatal(err)
			}
			if !o.Found || o.FirstBad != culprit || o.LastGood != culprit-1 {
				t.Fatalf("n=%d culprit=%d: found=%v first bad %d last good %d",
					n, culprit, o.Found, o.FirstBad, o.LastGood)
			}
			if limit := bits.Len(uint(n)); len(o.Steps) > limit {
				t.Errorf("n=%d culprit=%d: %d steps, more than %d", n, culprit, len(o.Steps), limit)
			}
			for _, st := range o.Steps {
				if st.Index == n-1 {
					t.Errorf("n=%d: probed the bad end", n)
				}
			}
		}
	}
}

// TestSearchSkipsUndecided: an undecided candidate is set aside and its
// neighbours decide; when every candidate of the open range is undecided,
// there is no culprit, and the range is said.
func TestSearchSkipsUndecided(t *testing.T) {
	o, err := Search(context.Background(), 30, 0, truth(17, map[int]bool{14: true, 20: true}))
	if err != nil || !o.Found || o.FirstBad != 17 {
		t.Fatalf("with undecided neighbours: %+v, %v", o, err)
	}
	// 16 undecided and 17 the first bad: 15 good, 16 unknown, so the change
	// lies in (15, 17] and no single culprit can be named.
	o, err = Search(context.Background(), 30, 0, truth(16, map[int]bool{16: true}))
	if err != nil || o.Found || o.LastGood != 15 || o.FirstBad != 17 {
		t.Fatalf("undecided culprit: found=%v range (%d, %d], want (15, 17] unfound", o.Found, o.LastGood, o.FirstBad)
	}
}

// TestSearchBudget: --max-steps stops the search with the range so far.
func TestSearchBudget(t *testing.T) {
	o, err := Search(context.Background(), 30, 2, truth(7, nil))
	if err != nil || o.Found || !o.OutOfSteps || len(o.Steps) != 2 {
		t.Fatalf("budget 2: %+v, %v", o, err)
	}
	if o.LastGood >= 7 || o.FirstBad < 7 {
		t.Errorf("range (%d, %d] does not hold 7", o.LastGood, o.FirstBad)
	}
	boom := errors.New("boom")
	failing := func(context.Context, int) (Step, error) { return Step{}, boom }
	if _, err := Search(context.Background(), 5, 0, failing); !errors.Is(err, boom) {
		t.Errorf("a probe's error: %v", err)
	}
}

func cell(unit string, vals ...float64) *report.Cell {
	c := &report.Cell{}
	c.Medians = map[string]float64{unit: median(vals)}
	c.Values = map[string][]float64{unit: vals}
	return c
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}

func TestJudgeExact(t *testing.T) {
	good := cell("allocs/op", 21.1, 21.1, 21.1, 21.1, 21.1)
	bad := cell("allocs/op", 13.2, 13.2, 13.2, 13.2, 13.2)
	for _, c := range []struct {
		cand []float64
		want string
	}{
		{[]float64{21.1, 21.1, 21.1, 21.1, 21.1}, LikeGood},
		{[]float64{13.2, 13.2, 13.2, 13.2, 13.2}, LikeBad},
		{[]float64{20.9, 21, 21.1, 21, 20.9}, LikeGood}, // within a quarter of the gap
		{[]float64{17, 17, 17, 17, 17}, Undecided},      // half way: a change in two steps
		{[]float64{14.5, 14.5, 14.5, 14.5, 14.5}, LikeBad},
	} {
		st, err := JudgeExact("allocs/op", Cells{Good: good, Candidate: cell("allocs/op", c.cand...), Bad: bad})
		if err != nil || st.Verdict != c.want {
			t.Errorf("candidate %v: %q, %v; want %q", c.cand, st.Verdict, err, c.want)
		}
	}
	st, _ := JudgeExact("allocs/op", Cells{Good: good, Candidate: bad, Bad: bad})
	want := 13.2 / 21.1
	if math.Abs(st.Ratio-want) > 1e-9 || math.Abs(st.Lo-want) > 1e-9 || math.Abs(st.Hi-want) > 1e-9 {
		t.Errorf("ratio %g [%g, %g], want %g exactly", st.Ratio, st.Lo, st.Hi, want)
	}
	if e := st.Ends; math.Abs(e.Ratio-want) > 1e-9 || math.Abs(e.Lo-want) > 1e-9 || math.Abs(e.Hi-want) > 1e-9 {
		t.Errorf("the ends' ratio %g [%g, %g], want %g exactly", e.Ratio, e.Lo, e.Hi, want)
	}
	if _, err := JudgeExact("allocs/op", Cells{Good: good, Candidate: good, Bad: good}); !errors.Is(err, ErrEndsAlike) {
		t.Errorf("ends alike: %v", err)
	}
	if _, err := JudgeExact("B/op", Cells{Good: good, Candidate: good, Bad: bad}); err == nil {
		t.Error("a unit the cells lack: no error")
	}
}

func ratio(r, lo, hi float64) report.Ratio {
	return report.Ratio{Ratio: r, Lo: lo, Hi: hi, Confidence: 0.95, N: 10}
}

func TestJudgeTime(t *testing.T) {
	slower := ratio(0.8, 0.75, 0.85)
	far := ratio(0.25, 0.23, 0.27)
	for _, c := range []struct {
		name                     string
		vsGood, vsBad, badVsGood report.Ratio
		want                     string
	}{
		{"like good", ratio(1, 0.98, 1.02), ratio(1.25, 1.2, 1.3), slower, LikeGood},
		{"like bad", ratio(0.8, 0.76, 0.84), ratio(1, 0.97, 1.03), slower, LikeBad},
		{"equivalent to neither", ratio(0.9, 0.88, 0.92), ratio(1.1, 1.08, 1.12), slower, Undecided},
		{"wide", ratio(1, 0.7, 1.3), ratio(1.2, 0.9, 1.5), slower, Undecided},
		{"ends alike", ratio(1, 0.98, 1.02), ratio(1, 0.98, 1.02), ratio(1, 0.98, 1.02), Undecided},
		{"no interval", ratio(1, math.Inf(-1), math.Inf(1)), ratio(1.25, 1.2, 1.3), slower, Undecided},
		// Ends 4× apart: a candidate within 20% of an end is on its side
		// of the halfway mark (2×), though not within 5% of it.
		{"far ends, like good", ratio(0.9, 0.8, 1.1), ratio(3.6, 3, 4.4), far, LikeGood},
		{"far ends, like bad", ratio(0.28, 0.22, 0.3), ratio(1.1, 0.9, 1.2), far, LikeBad},
		{"far ends, straddles the mark", ratio(0.5, 0.3, 0.9), ratio(2, 1.2, 3.3), far, Undecided},
		{"a far speed-up, like bad", ratio(3.8, 3.5, 4.3), ratio(0.95, 0.85, 1.1), ratio(4, 3.8, 4.2), LikeBad},
	} {
		if st := JudgeTime(c.vsGood, c.vsBad, c.badVsGood, 0.05); st.Verdict != c.want {
			t.Errorf("%s: %q (%s), want %q", c.name, st.Verdict, st.Detail, c.want)
		}
	}
}

func TestBetween(t *testing.T) {
	list := []string{"v1.14.22", "v1.14.9", "v1.14.23", "v1.14.24", "v1.14.10"}
	got, err := between("m", list, "v1.14.10", "v1.14.23")
	if err != nil || len(got) != 2 || got[0] != "v1.14.22" || got[1] != "v1.14.23" {
		t.Fatalf("between v1.14.10 and v1.14.23: %v, %v", got, err)
	}
	bad := [][2]string{{"v1.14.23", "v1.14.23"}, {"v1.14.24", "v1.14.9"},
		{"v1.14.99", "v1.14.24"}, {"v1.14.9", "v1.15.0"}}
	for _, c := range bad {
		var ie InputError
		if _, err := between("m", list, c[0], c[1]); !errors.As(err, &ie) {
			t.Errorf("good %s bad %s: %v, want an InputError", c[0], c[1], err)
		}
	}
}
