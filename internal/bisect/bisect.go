// Package bisect finds the first version or commit of a driver at which a
// measure changed: a binary search over an ordered list of candidates
// between a good end and a bad end, each candidate judged by a probe (in
// sqlbench, a session measuring it beside both ends) as like the good end,
// like the bad end, or undecided. The candidates are a module's releases
// between the ends (Versions) or a git repository's commits (Commits, each
// written out as a tree by Extract).
package bisect

import (
	"context"
	"fmt"
)

// The verdicts of a probed candidate.
const (
	// LikeGood: the candidate measures as the good end does.
	LikeGood = "like good"
	// LikeBad: the candidate measures as the bad end does.
	LikeBad = "like bad"
	// Undecided: the runs do not tell which end the candidate is like.
	Undecided = "undecided"
)

// Step is one probe of the search: a candidate, the verdict it was given
// and what the measure showed.
type Step struct {
	// Index is the candidate's position in the list searched; Candidate
	// its name (a version, a commit).
	Index     int
	Candidate string
	// Verdict is LikeGood, LikeBad or Undecided.
	Verdict string
	// Detail says what the measure showed ("13.2 allocs/op; good 21.1,
	// bad 13.2").
	Detail string
	// Results are the results files the probe wrote, every attempt's.
	Results []string
	// Ratio, Lo and Hi are the candidate's measure over the good end's,
	// with its interval (Lo and Hi 0 when there is none); Confidence is
	// the interval's.
	Ratio, Lo, Hi, Confidence float64
	// Ends is the bad end's measure over the good end's in the same
	// session, as Ratio is the candidate's: the culprit's ratio when the
	// culprit is the bad end, which no step probes.
	Ends Ratio
}

// Ratio is one measure over another with its interval (Lo and Hi 0 when
// there is none) at Confidence.
type Ratio struct {
	Ratio, Lo, Hi, Confidence float64
}

// Probe measures candidate i of the list and judges it. An error ends the
// search.
type Probe func(ctx context.Context, i int) (Step, error)

// Outcome is where a search ended.
type Outcome struct {
	// Steps are the probes in the order they ran.
	Steps []Step
	// LastGood is the index of the last candidate known like good (-1: the
	// good end itself); FirstBad that of the first known like bad (the
	// last candidate, the bad end, when no probe said so). The first
	// change lies in (LastGood, FirstBad].
	LastGood, FirstBad int
	// Found is set when FirstBad directly follows LastGood: FirstBad is
	// the culprit.
	Found bool
	// OutOfSteps is set when the search stopped at its step budget.
	OutOfSteps bool
}

// Search bisects n candidates, ordered oldest first, the last being the
// bad end (known bad, never probed); the good end precedes the first. It
// probes at most maxSteps candidates (0: no limit). A candidate the probe
// leaves undecided is set aside, and the next probe takes the untried
// candidate nearest the middle of the range still open, as git bisect
// skip does; when every candidate of the range is undecided the search
// stops without a culprit, the range in Outcome.
func Search(ctx context.Context, n int, maxSteps int, probe Probe) (Outcome, error) {
	if n < 1 {
		return Outcome{}, fmt.Errorf("bisect: no candidates")
	}
	o := Outcome{LastGood: -1, FirstBad: n - 1}
	undecided := map[int]bool{}
	for o.FirstBad-o.LastGood > 1 {
		if maxSteps > 0 && len(o.Steps) >= maxSteps {
			o.OutOfSteps = true
			return o, nil
		}
		i := next(o.LastGood, o.FirstBad, undecided)
		if i < 0 {
			return o, nil
		}
		st, err := probe(ctx, i)
		if err != nil {
			return o, err
		}
		st.Index = i
		o.Steps = append(o.Steps, st)
		switch st.Verdict {
		case LikeGood:
			o.LastGood = i
		case LikeBad:
			o.FirstBad = i
		default:
			undecided[i] = true
		}
	}
	o.Found = true
	return o, nil
}

// next returns the candidate strictly between lo and hi nearest their
// middle that is not undecided (the lower of two as near), or -1 when there
// is none.
func next(lo, hi int, undecided map[int]bool) int {
	mid := lo + (hi-lo)/2
	for d := 0; d < hi-lo; d++ {
		for _, i := range []int{mid - d, mid + d} {
			if i > lo && i < hi && !undecided[i] {
				return i
			}
		}
	}
	return -1
}
