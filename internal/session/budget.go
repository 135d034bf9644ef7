// A budgeted session (Config.Budget): a group-sequential design that spends
// its runs on the ratio comparisons still undecided. docs/methodology.md,
// "Budgeted sessions", gives the reasoning.

package session

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/internal/progress"
	"github.com/sqlbench/sqlbench/internal/report"
)

// budgetMargin is how much longer than its estimate a round may take and
// still fit: a round runs only when its estimated time, times
// budgetMargin, fits in what is left of the budget (the load of a shared
// machine changes from one round to the next).
const budgetMargin = 1.3

// DefaultLooks is the looks a budgeted session plans when Config.Looks is
// 0; MaxLooks the most it takes.
const (
	DefaultLooks = 4
	MaxLooks     = 8
)

// Design is the plan of a budgeted session: K looks at the data, after
// runs per cell planned before any is measured (Sizes: the first stage,
// then doubling), each look's ratio intervals at Confidence = 1 - α/K with
// α = 1 - report.Confidence. By the union bound the chance that any look
// calls a comparison wrongly (faster, slower or equivalent when it is
// not) is at most α, whenever the session stops: a comparison decided at
// a look is final, the budget only ends the looks early.
type Design struct {
	// Budget bounds the measuring time: the next round runs only while
	// its estimated time fits in what is left.
	Budget time.Duration
	// Looks is K; Confidence each look's level.
	Looks      int
	Confidence float64
	// Sizes are the runs per cell at each look: Sizes[0] is the first
	// stage, each next one twice the last.
	Sizes []int
	// Asked is the --count given, when the first stage had to be raised
	// above it (the fewest runs a look's interval needs: IntervalRuns);
	// 0 when it was not.
	Asked int
}

// Design returns the plan of a budgeted session of c; ok is false when c
// has no Budget (a fixed design of Count runs).
func (c *Config) Design() (d Design, ok bool) {
	if c.Budget <= 0 {
		return Design{}, false
	}
	d = Design{Budget: c.Budget, Looks: c.Looks}
	if d.Looks == 0 {
		d.Looks = DefaultLooks
	}
	d.Confidence = report.LookConfidence(d.Looks)
	first := max(c.Count, report.IntervalRuns(d.Confidence))
	if first > c.Count {
		d.Asked = c.Count
	}
	for k := range d.Looks {
		d.Sizes = append(d.Sizes, first<<k)
	}
	return d, true
}

// String describes the design in one paragraph: the first stage, the
// looks, their confidence and the budget.
func (d Design) String() string {
	first := fmt.Sprintf("a first stage of %d runs per cell", d.Sizes[0])
	if d.Asked > 0 {
		first += fmt.Sprintf(" (--count %d raised to the fewest runs a %s interval needs)", d.Asked, pct(d.Confidence))
	}
	more := make([]string, len(d.Sizes)-1)
	for i, n := range d.Sizes[1:] {
		more[i] = strconv.Itoa(n)
	}
	then := "no more rounds (--looks 1)"
	if len(more) > 0 {
		then = fmt.Sprintf("up to %d more rounds for the cells of the comparisons still undecided, to %s runs per cell",
			len(more), strings.Join(more, ", "))
	}
	return fmt.Sprintf(
		"budgeted session (--budget %s): %s, then %s; %d looks, each at %s confidence (%s over all looks, "+
			"Bonferroni); a round runs only while its estimated time fits in what is left of the budget",
		d.Budget, first, then, d.Looks, pct(d.Confidence), pct(report.Confidence))
}

// Estimate says what the design would take given the first stage's
// estimated time: at most every look's runs (no comparison decided
// early), bounded by the budget, though never less than the first stage.
func (d Design) Estimate(first time.Duration) string {
	if first <= 0 {
		return fmt.Sprintf("budgeted estimate: none for the first stage (see above); the rounds after it stay within "+
			"the budget, %s", d.Budget)
	}
	all := time.Duration(float64(first) * float64(d.Sizes[len(d.Sizes)-1]) / float64(d.Sizes[0]))
	bound := min(all, max(first, d.Budget))
	text := fmt.Sprintf("budgeted estimate: %s for the first stage; at most %s with every look's runs, "+
		"bounded by the budget: at most %s", formatDuration(first), formatDuration(all), formatDuration(bound))
	if first > d.Budget {
		text += " (the first stage alone is over the budget: it always runs whole)"
	}
	return text
}

// Spent is what a budgeted session spent: its rounds and measuring time
// and how many of its ratio comparisons its looks decided.
type Spent struct {
	Design Design
	// Time is the measuring time, Rounds the rounds run (each ended by a
	// look).
	Time   time.Duration
	Rounds int
	// Decisions are the verdicts at the last look (those of earlier looks
	// kept).
	Decisions report.Decisions
	// Stop says why no further round ran.
	Stop string
}

// String is the summary line: "budget 3m0s: spent 2m41s in 3 rounds; 55
// of 57 comparisons decided (every look at 98.75%; stopped: ...)".
func (s Spent) String() string {
	rounds := "rounds"
	if s.Rounds == 1 {
		rounds = "round"
	}
	return fmt.Sprintf("budget %s: spent %s in %d %s; %d of %d comparisons decided (%d looks planned, each at %s; %s)",
		s.Design.Budget, formatDuration(s.Time), s.Rounds, rounds, s.Decisions.Decided(), s.Decisions.Total(),
		s.Design.Looks, pct(s.Design.Confidence), s.Stop)
}

// Why a budgeted session ran no further round (Spent.Stop).
const (
	StopDecided = "stopped: every comparison decided"
	StopLooks   = "stopped: every planned look done"
	StopBudget  = "stopped: the next round would not fit in the budget"
	StopNone    = "stopped: no comparison left that more runs could decide"
	StopNoRatio = "stopped: no ratio comparison (no table with the baseline beside another target)"
	StopEnded   = "stopped: the session ended during the round"
)

// sequential is a budgeted session's state: the design, the measuring
// time per cell, the verdicts the looks reached.
type sequential struct {
	design  Design
	spent   map[string]time.Duration // by cell: time in its steps
	decided map[string]string        // by comparison: its final verdict
}

// designLines records a budgeted session's design in the results file's
// header, so that a report of the file computes its ratios at the looks'
// confidence and reaches the session's verdicts.
func (s *Session) designLines() {
	if s.seq == nil {
		return
	}
	d := s.seq.design
	s.results.SetConfig(report.KeyBudget, d.Budget.String())
	s.results.SetConfig(report.KeyLooks, strconv.Itoa(d.Looks))
	s.results.SetConfig(report.KeyLookConfidence, strconv.FormatFloat(d.Confidence, 'g', -1, 64))
}

// planDesign makes a budgeted session's state and raises Count to the
// design's first stage (a resumed session's journal has it raised).
func (s *Session) planDesign() {
	if d, ok := s.cfg.Design(); ok {
		s.cfg.Count = d.Sizes[0]
		s.seq = &sequential{design: d, spent: map[string]time.Duration{}, decided: map[string]string{}}
	}
}

// plannedRuns is the most runs a session whose first schedule has first
// runs can take: first, or in a budgeted session every look's (the
// journal's count, which a report of an unfinished session compares the
// runs begun with).
func (s *Session) plannedRuns(first int) int {
	if s.seq == nil {
		return first
	}
	sizes := s.seq.design.Sizes
	return first / sizes[0] * sizes[len(sizes)-1]
}

// spend adds d to the measuring time of cell (a budgeted session's).
func (s *Session) spend(cell string, d time.Duration) {
	if s.seq != nil {
		s.seq.spent[cell] += d
	}
}

// runSchedule runs the session's steps: all of them in a fixed design; in
// a budgeted one the first stage, then, look by look, the rounds the
// undecided comparisons need (runRounds).
func (s *Session) runSchedule(ctx context.Context) error {
	if s.seq == nil {
		return s.runSteps(ctx, s.steps)
	}
	return s.runRounds(ctx)
}

// runRounds runs a budgeted session: round 1 is the first stage (s.steps);
// after each round a look classifies every ratio comparison at the
// design's confidence, keeping the verdicts of earlier looks; the cells
// of the undecided ones get the runs up to the next look's size in the
// next round (interleaved and sliced as any schedule), while its time,
// estimated from each cell's time per run so far, fits in the budget.
func (s *Session) runRounds(ctx context.Context) error {
	seq, d := s.seq, s.seq.design
	began := time.Now()
	out := &Spent{Design: d}
	steps := s.steps
	for k := 0; ; k++ {
		start := time.Now()
		before := sumDurations(seq.spent)
		if k > 0 {
			s.display.Finish()
			s.display = progress.New(s.env.Log, len(steps), d.Sizes[k], s.env.LogTTY)
		}
		err := s.runSteps(ctx, steps)
		out.Time, out.Rounds = time.Since(began), k+1
		s.out.Spent = out
		if err != nil {
			out.Stop = StopEnded
			return err
		}
		active, dec := s.look()
		out.Decisions = dec
		next := k + 1
		switch {
		case dec.Total() == 0:
			out.Stop = StopNoRatio
		case dec.Undecided == 0:
			out.Stop = StopDecided
		case next >= len(d.Sizes):
			out.Stop = StopLooks
		case len(active) == 0:
			out.Stop = StopNone
		}
		if out.Stop != "" {
			s.logLook(k, dec, "")
			return nil
		}
		// The next round's time: each active cell's time per run so far
		// times the runs it gets, and this round's time outside the
		// cells' steps (the probes at each pass) per pass times the next
		// round's passes.
		add := d.Sizes[next] - d.Sizes[k]
		nextSteps := s.round(active, d.Sizes[k], add, lastPass(steps)+1)
		perPass := time.Duration(0)
		if n := passes(steps); n > 0 {
			perPass = max(0, time.Since(start)-(sumDurations(seq.spent)-before)) / time.Duration(n)
		}
		est := perPass * time.Duration(passes(nextSteps))
		for cell := range active {
			est += time.Duration(float64(seq.spent[cell]) / float64(d.Sizes[k]) * float64(add))
		}
		left := d.Budget - time.Since(began)
		if time.Duration(float64(est)*budgetMargin) > left {
			out.Stop = StopBudget
			s.logLook(k, dec, fmt.Sprintf("; the next round (~%s) would not fit in the %s left of the budget",
				formatDuration(est), formatDuration(max(left, 0))))
			return nil
		}
		s.logLook(k, dec, fmt.Sprintf("; round %d: %d cells, %d more runs each, ~%s (%s of the budget left)",
			next+1, len(active), add, formatDuration(est), formatDuration(left)))
		steps = nextSteps
	}
}

// round is the schedule of a round: add runs of every active cell,
// numbered on from done, its passes from pass.
func (s *Session) round(active map[string]bool, done, add, pass int) []Step {
	var out []Step
	for _, st := range s.scheduleN(add) {
		if active[st.Cell.Name()] {
			st.Run += done
			st.Pass += pass
			out = append(out, st)
		}
	}
	return out
}

// look classifies every ratio comparison of the results so far (the
// session's report: its baseline, resolution, and the looks' confidence
// the results file records), keeping the verdict of a comparison decided
// at an earlier look. It returns the cells the undecided comparisons still
// need (not those that failed) and the verdicts.
func (s *Session) look() (active map[string]bool, d report.Decisions) {
	r := report.New(s.out.Done, s.out.Failed, WorkloadInfo)
	r.Baseline = s.cfg.Baseline
	p := report.ResolutionOr(s.cfg.Resolution, report.DefaultResolution)
	active = map[string]bool{}
	for _, t := range r.Tables() {
		base, ok := t.BaselineOf(r.Baseline)
		if !ok {
			continue
		}
		for _, q := range t.Ratios(base) {
			key := strings.Join([]string{t.Family, t.DB, q.Row, q.Col, base}, "\x00")
			kind, final := s.seq.decided[key]
			if !final {
				if kind = q.Kind(p); kind != report.Undecided {
					s.seq.decided[key] = kind
				}
			}
			d.Add(kind)
			if kind != report.Undecided {
				continue
			}
			num, den := t.Cell(q.Row, q.Col).Name, t.Cell(q.Row, base).Name
			_, nf := s.failed[num]
			_, df := s.failed[den]
			if !nf && !df {
				active[num], active[den] = true, true
			}
		}
	}
	return active, d
}

// logLook logs what look k decided, and what comes next.
func (s *Session) logLook(k int, d report.Decisions, next string) {
	fmt.Fprintf(s.env.Log, "look %d of %d (%d runs per cell, %s): %s%s\n", k+1, s.seq.design.Looks,
		s.seq.design.Sizes[k], pct(s.seq.design.Confidence), d, next)
}

// passes is the number of passes of steps.
func passes(steps []Step) int {
	seen := map[int]bool{}
	for _, st := range steps {
		seen[st.Pass] = true
	}
	return len(seen)
}

// lastPass is the last pass of steps (-1 for none).
func lastPass(steps []Step) int {
	last := -1
	for _, st := range steps {
		last = max(last, st.Pass)
	}
	return last
}

func sumDurations(m map[string]time.Duration) time.Duration {
	var t time.Duration
	for _, d := range m {
		t += d
	}
	return t
}

// pct formats a confidence level as a percentage: "98.75%".
func pct(c float64) string { return strconv.FormatFloat(math.Round(c*1e6)/1e4, 'f', -1, 64) + "%" }

// formatDuration rounds a duration for a line: to the second from a
// minute, else to the tenth of a second.
func formatDuration(d time.Duration) string {
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(100 * time.Millisecond).String()
}
