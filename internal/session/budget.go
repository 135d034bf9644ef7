// A budgeted session (Config.Budget): a group-sequential design that spends
// its runs on the ratio comparisons still undecided. docs/methodology.md,
// "Budgeted sessions", gives the reasoning.

package session

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/internal/progress"
	"github.com/sqlbench/sqlbench/internal/published"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// budgetMargin is how much longer than its estimate a round may take and
// still fit: a round runs only when its estimated time, times
// budgetMargin, fits in what is left of the budget (the load of a shared
// machine changes from one round to the next).
const budgetMargin = 1.3

// DefaultLooks is the looks a budgeted session plans when Config.Looks is
// 0; MaxLooks the most it takes.
const (
	DefaultLooks = 5
	MaxLooks     = 16
)

// DefaultBudgetTimes is the default run's budget (Config.BudgetTimes when
// neither --count nor --budget is given): twice the measuring time of the
// fixed design of DefaultCount runs a cell.
const DefaultBudgetTimes = 2.0

// Design is the plan of a budgeted session: K looks at the data, after
// runs per cell planned before any is measured (Sizes: the first stage,
// then equal steps of half of it, report.LookSizes). At each look a paired
// ratio's interval is the order-statistic interval of rank Bounds[k]
// (report.LookBounds): the chance that any look's interval misses the true
// ratio, over all K, is at most α = 1 - report.Confidence, spent over the
// looks by a Pocock-type spending function (report.SpentAlpha) and
// computed exactly, whenever the session stops: a comparison decided at a
// look is final, the budget only ends the looks early. Confidence is
// 1 - α/K, the Bonferroni level an unpaired ratio falls back to.
type Design struct {
	// Budget bounds the measuring time: the next round runs only while
	// its estimated time fits in what is left. In a session with a default
	// budget (Times) it is 0 until the first stage has measured it.
	Budget time.Duration
	// Times, when above 0, makes the budget Times × the measuring time of
	// a fixed design of Fixed runs per cell, as the first stage measured
	// it (its time × Fixed / Sizes[0]).
	Times float64
	Fixed int
	// Looks is K; Confidence the Bonferroni level of each (unpaired
	// ratios).
	Looks      int
	Confidence float64
	// Sizes are the runs per cell at each look: Sizes[0] is the first
	// stage. Bounds are the looks' ranks.
	Sizes, Bounds []int
	// Asked is the --count given, when the first stage had to be raised
	// above it (the fewest runs whose first look has an interval); 0 when
	// it was not.
	Asked int
}

// Design returns the plan of a budgeted session of c; ok is false when c
// has neither a Budget nor BudgetTimes (a fixed design of Count runs).
func (c *Config) Design() (d Design, ok bool) {
	if c.Budget <= 0 && c.BudgetTimes <= 0 {
		return Design{}, false
	}
	d = Design{Budget: c.Budget, Looks: c.Looks}
	if c.Budget <= 0 {
		d.Times, d.Fixed = c.BudgetTimes, c.Count
	}
	if d.Looks == 0 {
		d.Looks = DefaultLooks
	}
	d.Confidence = report.LookConfidence(d.Looks)
	first := max(c.Count, 2)
	for ; first < 1000; first++ {
		if report.LookBounds(report.LookSizes(first, d.Looks))[0] > 0 {
			break
		}
	}
	if first > c.Count && d.Times == 0 {
		d.Asked = c.Count
	}
	d.Sizes = report.LookSizes(first, d.Looks)
	d.Bounds = report.LookBounds(d.Sizes)
	return d, true
}

// budgetText is the design's budget: "--budget 1m30s", or how a default
// one is set.
func (d Design) budgetText() string {
	if d.Times > 0 {
		return fmt.Sprintf("default budget: %g × a fixed design's measuring time (%d runs per cell), set from the "+
			"first stage's", d.Times, d.Fixed)
	}
	return "--budget " + d.Budget.String()
}

// String describes the design in one paragraph: the first stage, the
// looks, their intervals and the budget.
func (d Design) String() string {
	first := fmt.Sprintf("a first stage of %d runs per cell", d.Sizes[0])
	if d.Asked > 0 {
		first += fmt.Sprintf(" (--count %d raised to the fewest runs whose first look has an interval)", d.Asked)
	}
	more := make([]string, len(d.Sizes)-1)
	for i, n := range d.Sizes[1:] {
		more[i] = strconv.Itoa(n)
	}
	then := "no more rounds (--looks 1)"
	if len(more) > 0 {
		then = fmt.Sprintf("up to %d more rounds for the comparisons still undecided, to %s runs per cell",
			len(more), strings.Join(more, ", "))
	}
	looks := make([]string, len(d.Sizes))
	for i := range d.Sizes {
		looks[i] = pct1(report.RankCoverage(d.Sizes[i], d.Bounds[i]))
	}
	return fmt.Sprintf("budgeted session (%s): %s, then %s; %d looks, their intervals at %s each (%s over all "+
		"looks: Pocock-type alpha spending, exact for the paired order-statistic intervals); each round goes to "+
		"the undecided comparisons nearest a verdict, as many as fit in what is left of the budget",
		d.budgetText(), first, then, d.Looks, strings.Join(looks, ", "), pct(report.Confidence))
}

// Estimate says what the design would take given the first stage's
// estimated time: at most every look's runs (no comparison decided
// early), bounded by the budget, though never less than the first stage.
func (d Design) Estimate(first time.Duration) string {
	if first <= 0 {
		if d.Times > 0 {
			return fmt.Sprintf("budgeted estimate: none for the first stage (see above); the budget will be %g × "+
				"its measured time × %d/%d", d.Times, d.Fixed, d.Sizes[0])
		}
		return fmt.Sprintf("budgeted estimate: none for the first stage (see above); the rounds after it stay within "+
			"the budget, %s", d.Budget)
	}
	budget, how := d.Budget, ""
	if d.Times > 0 {
		budget = d.defaultBudget(first)
		how = fmt.Sprintf("; the budget, %g × the fixed design's %s, is set from the first stage's measured time",
			d.Times, formatDuration(time.Duration(float64(first)*float64(d.Fixed)/float64(d.Sizes[0]))))
	}
	all := time.Duration(float64(first) * float64(d.Sizes[len(d.Sizes)-1]) / float64(d.Sizes[0]))
	bound := min(all, max(first, budget))
	text := fmt.Sprintf("budgeted estimate: %s for the first stage; at most %s with every look's runs, "+
		"bounded by the budget (%s): at most %s%s", formatDuration(first), formatDuration(all),
		formatDuration(budget), formatDuration(bound), how)
	if first > budget {
		text += " (the first stage alone is over the budget: it always runs whole)"
	}
	return text
}

// defaultBudget is a default budget given the first stage's time: Times
// × the time of a fixed design of Fixed runs per cell, scaled from it.
func (d Design) defaultBudget(first time.Duration) time.Duration {
	return time.Duration(d.Times * float64(first) * float64(d.Fixed) / float64(d.Sizes[0]))
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
// of 57 comparisons decided (7 looks planned, Pocock-type spending; ...)".
func (s Spent) String() string {
	rounds := "rounds"
	if s.Rounds == 1 {
		rounds = "round"
	}
	budget := "budget " + formatDuration(s.Design.Budget)
	if s.Design.Times > 0 {
		budget = fmt.Sprintf("default budget %s (%g × the fixed design's time)", formatDuration(s.Design.Budget),
			s.Design.Times)
	}
	return fmt.Sprintf("%s: spent %s in %d %s; %d of %d comparisons decided (%d looks planned, %s over all; %s)",
		budget, formatDuration(s.Time), s.Rounds, rounds, s.Decisions.Decided(), s.Decisions.Total(),
		s.Design.Looks, pct(report.Confidence), s.Stop)
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
// time per cell, the verdicts the looks reached, the comparisons left out
// of a round (which get no runs again, so that a comparison's runs stay
// paired with its baseline's by pass).
type sequential struct {
	design  Design
	spent   map[string]time.Duration // by cell: time in its steps
	decided map[string]string        // by comparison: its final verdict
	dropped map[string]bool          // by comparison: left out of a round
}

// designLines records a budgeted session's design in the results file's
// header, so that a report of the file computes its ratios at the looks'
// intervals and reaches the session's verdicts.
func (s *Session) designLines() {
	if s.seq == nil {
		return
	}
	d := s.seq.design
	budget := d.Budget.String()
	if d.Times > 0 { // set after the first stage: the log and the summary say it
		budget = fmt.Sprintf("default, %g × a fixed design of %d runs per cell", d.Times, d.Fixed)
	}
	s.results.SetConfig(report.KeyBudget, budget)
	s.results.SetConfig(report.KeyLooks, strconv.Itoa(d.Looks))
	s.results.SetConfig(report.KeyLookConfidence, strconv.FormatFloat(d.Confidence, 'g', -1, 64))
	s.results.SetConfig(report.KeyLookBounds, report.FormatLookBounds(d.Sizes, d.Bounds))
}

// planDesign makes a budgeted session's state and raises Count to the
// design's first stage (a resumed session's journal has it raised).
func (s *Session) planDesign() {
	if d, ok := s.cfg.Design(); ok {
		s.cfg.Count = d.Sizes[0]
		s.seq = &sequential{design: d, spent: map[string]time.Duration{}, decided: map[string]string{},
			dropped: map[string]bool{}}
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
// look's interval, keeping the verdicts of earlier looks; the next round
// gives the runs up to the next look's size to the undecided comparisons
// nearest a verdict (choose), as many as its time, estimated from each
// cell's time per run so far, fits in what is left of the budget; the
// others get no more runs.
func (s *Session) runRounds(ctx context.Context) error {
	seq := s.seq
	d := &seq.design
	fmt.Fprint(s.env.Log, textlayout.Wrap(d.String(), textlayout.Width, "  "))
	began := time.Now()
	out := &Spent{Design: *d}
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
		if k == 0 && d.Times > 0 { // a default budget: from the first stage's measured time
			d.Budget = d.defaultBudget(out.Time)
			out.Design.Budget = d.Budget
			fmt.Fprintf(s.env.Log,
				"budget: %s, %g × a fixed design's %s (%d runs per cell; the first stage of %d took %s)\n",
				formatDuration(d.Budget), d.Times, formatDuration(d.Budget/time.Duration(d.Times)), d.Fixed, d.Sizes[0],
				formatDuration(out.Time))
		}
		cands, dec := s.look(k)
		out.Decisions = dec
		next := k + 1
		switch {
		case dec.Total() == 0:
			out.Stop = StopNoRatio
		case dec.Undecided == 0:
			out.Stop = StopDecided
		case next >= len(d.Sizes):
			out.Stop = StopLooks
		case len(cands) == 0:
			out.Stop = StopNone
		}
		if out.Stop != "" {
			s.logLook(k, dec, "")
			return nil
		}
		// The next round's time: each chosen cell's time per run so far
		// times the runs it gets, and this round's time outside the
		// cells' steps (the probes at each pass) per pass times the next
		// round's passes (counted for every candidate: an upper bound).
		add := d.Sizes[next] - d.Sizes[k]
		all := map[string]bool{}
		for _, c := range cands {
			all[c.num], all[c.den] = true, true
		}
		perPass := time.Duration(0)
		if n := passes(steps); n > 0 {
			perPass = max(0, time.Since(start)-(sumDurations(seq.spent)-before)) / time.Duration(n)
		}
		overhead := perPass * time.Duration(passes(s.round(all, d.Sizes[k], add, lastPass(steps)+1)))
		perRun := func(cell string) time.Duration {
			return time.Duration(float64(seq.spent[cell]) / float64(d.Sizes[k]) * float64(add))
		}
		left := d.Budget - time.Since(began)
		room := time.Duration(float64(left)/budgetMargin) - overhead
		active, est, chosen := choose(cands, perRun, room)
		for _, c := range cands[chosen:] {
			seq.dropped[c.key] = true
		}
		if chosen == 0 {
			out.Stop = StopBudget
			s.logLook(k, dec, fmt.Sprintf("; no comparison's next round (the nearest ~%s) fits in the %s left of the "+
				"budget", formatDuration(perRun(cands[0].num)+perRun(cands[0].den)+overhead),
				formatDuration(max(left, 0))))
			return nil
		}
		est += overhead
		s.logLook(k, dec, fmt.Sprintf("; round %d: %d of %d undecided comparisons (%d cells), %d more runs each, ~%s "+
			"(%s of the budget left)", next+1, chosen, dec.Undecided, len(active), add, formatDuration(est),
			formatDuration(left)))
		steps = s.round(active, d.Sizes[k], add, lastPass(steps)+1)
	}
}

// candidate is an undecided comparison that more runs may decide: its
// key, its cells (numerator and baseline) and the runs per cell its
// interval estimates would settle it (report.Ratio.Settle; 0 unknown).
type candidate struct {
	key, num, den string
	settle        int
}

// choose picks the comparisons of the next round from cands (sorted,
// nearest a verdict first): in that order, each whose cells' time
// (perRun of each cell not yet chosen; a baseline shared by the
// comparisons of its row counts once) still fits in room. It moves the
// chosen to the front of cands and returns their cells, their time and
// how many were chosen.
func choose(cands []candidate, perRun func(string) time.Duration, room time.Duration) (map[string]bool,
	time.Duration, int) {
	active := map[string]bool{}
	var est time.Duration
	var in, out []candidate
	for _, c := range cands {
		cost := time.Duration(0)
		for _, cell := range []string{c.num, c.den} {
			if !active[cell] {
				cost += perRun(cell)
			}
		}
		if est+cost > room {
			out = append(out, c)
			continue
		}
		est += cost
		active[c.num], active[c.den] = true, true
		in = append(in, c)
	}
	copy(cands, append(in, out...))
	return active, est, len(in)
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
// session's report: its baseline, resolution, and the looks' intervals
// the results file records), keeping the verdict of a comparison decided
// at an earlier look. It returns the verdicts and the undecided
// comparisons more runs may decide, nearest a verdict first: not those
// whose cells failed, were left out of an earlier round, or whose interval
// estimates they would need far more runs than the last look's
// (hopeless).
func (s *Session) look(k int) (cands []candidate, d report.Decisions) {
	r := report.New(s.out.Done, s.out.Failed, WorkloadInfo)
	if s.cfg.Study != "" {
		return s.lookStudy(r, k)
	}
	r.Baseline = s.cfg.Baseline
	p := report.ResolutionOr(s.cfg.Resolution, report.DefaultResolution)
	sizes := s.seq.design.Sizes
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
			if kind != report.Undecided || s.seq.dropped[key] || k+1 >= len(sizes) {
				continue
			}
			num, den := t.Cell(q.Row, q.Col).Name, t.Cell(q.Row, base).Name
			_, nf := s.failed[num]
			_, df := s.failed[den]
			settle := q.Settle(p)
			if nf || df || hopeless(settle, sizes) {
				s.seq.dropped[key] = true
				continue
			}
			cands = append(cands, candidate{key: key, num: num, den: den, settle: settle})
		}
	}
	sortCandidates(cands)
	return cands, d
}

// lookStudy is look for a session reproducing a study (Config.Study): its
// comparisons are the study's headline ones (published.For), decided
// when the measured ratio agrees or disagrees with the published one at
// the study resolution. A comparison's cells may run on for another's, so
// its verdict is read afresh at each look (the last look both its cells
// reached), not kept.
func (s *Session) lookStudy(r *report.Report, k int) (cands []candidate, d report.Decisions) {
	st, ok := studies.Lookup(s.cfg.Study)
	if !ok {
		return nil, d
	}
	r.StudyResolution = s.cfg.StudyResolution
	d.Published = true
	sizes := s.seq.design.Sizes
	for i, row := range published.For(r, st).Rows {
		d.Add(row.Verdict)
		key := "study\x00" + strconv.Itoa(i)
		if row.Verdict != published.VerdictInconclusive || s.seq.dropped[key] || k+1 >= len(sizes) {
			continue
		}
		num, den := row.NumCell.Name, row.DenCell.Name
		_, nf := s.failed[num]
		_, df := s.failed[den]
		if nf || df || hopeless(row.Settle, sizes) {
			s.seq.dropped[key] = true
			continue
		}
		cands = append(cands, candidate{key: key, num: num, den: den, settle: row.Settle})
	}
	sortCandidates(cands)
	return cands, d
}

// hopelessFactor: a comparison whose interval estimates it would need
// more than this many times the last look's runs (or more than
// report.MaxSettleRuns) gets no round. The estimate from a few runs is
// rough — for normal data the range of 7 runs, the first look's interval,
// has a coefficient of variation of about 30% — so one estimated a little
// beyond the last look may still be decided there; the factor is a
// factor of 2 in the interval's width.
const hopelessFactor = 4

// hopeless reports whether a comparison whose interval estimates settle
// runs per cell (report.Ratio.Settle) gets no more runs in a design of
// sizes.
func hopeless(settle int, sizes []int) bool {
	return settle < 0 || settle > hopelessFactor*sizes[len(sizes)-1]
}

// sortCandidates orders comparisons nearest a verdict first: by the runs
// their intervals estimate would settle them, an unknown estimate (0)
// last, then by key.
func sortCandidates(cands []candidate) {
	slices.SortStableFunc(cands, func(a, b candidate) int {
		ka, kb := a.settle, b.settle
		if ka == 0 {
			ka = math.MaxInt
		}
		if kb == 0 {
			kb = math.MaxInt
		}
		return cmp.Or(cmp.Compare(ka, kb), strings.Compare(a.key, b.key))
	})
}

// logLook logs what look k decided, and what comes next.
func (s *Session) logLook(k int, d report.Decisions, next string) {
	dz := s.seq.design
	fmt.Fprintf(s.env.Log, "look %d of %d (%d runs per cell, intervals at %s): %s%s\n", k+1, dz.Looks,
		dz.Sizes[k], pct1(report.RankCoverage(dz.Sizes[k], dz.Bounds[k])), d, next)
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

// pct1 formats a coverage as a percentage, down to a tenth: "98.4%" for
// 98.4375% (never more than it is).
func pct1(c float64) string { return strconv.FormatFloat(math.Floor(1000*c+1e-9)/10, 'f', 1, 64) + "%" }

// formatDuration rounds a duration for a line: to the second from a
// minute, else to the tenth of a second.
func formatDuration(d time.Duration) string {
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(100 * time.Millisecond).String()
}
