package cli

// sqlbench bisect finds the release or commit of a driver at which a
// measure changed. Each candidate is a variant target (name@version, or
// name@DIR for a commit extracted from a local checkout) measured beside
// both ends in one interleaved session, run through internal/session as
// sqlbench run runs one; package bisect orders the search and judges each
// step.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/bisect"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/textlayout"
	"github.com/sqlbench/sqlbench/targets"
)

// bisectOptions are sqlbench bisect's flags.
type bisectOptions struct {
	Target, Good, Bad, Checkout, Workload, Measure string
	MaxSteps, Count, MaxCount                      int
	Scale                                          float64
	Quick, Force                                   bool
	Resolution                                     float64
	Out, Cache                                     string
	DSNs                                           []string
}

// The measures bisect takes, by the name --measure gives them: the
// deterministic ones are read from the medians, time from the paired
// ratios of ops/s.
var bisectMeasures = map[string]string{
	"allocs/op": "allocs/op", "B/op": "B/op", "ns/op": "time", "ops/s": "time", "time": "time",
}

// bisectCommand is sqlbench bisect.
func bisectCommand(ctx context.Context, env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "bisect --target NAME --good A --bad B --workload W --measure M [flags]",
		Short: "find the release or commit of a driver where a measure changed",
		Long: `Bisect finds the first release (or commit) of a driver at which a measure
changed between a good and a bad end. Releases come from the module proxy (go
list -m -versions MODULE); with --checkout DIR, the commits of that git
checkout after --good up to --bad along first parents (git rev-list
--first-parent good..bad), each extracted with git archive.

Each step builds a candidate as a variant target (name@version, or name@DIR)
and measures it beside both ends in one interleaved session, then judges it:
allocs/op and B/op are exact (like the end whose median it equals, or lies
within a quarter of the ends' gap of); time (ns/op, ops/s) needs the paired
verdicts at --resolution: equivalent to one end and faster or slower than the
other, else undecided, and the step is run again with twice the runs up to
--max-count. An undecided candidate is set aside and its neighbour tried (as
git bisect skip). It prints every step and the culprit, the first candidate
like the bad end, with its ratio to the good end and interval; every step's
results file is kept in the -o directory (docs/versions.md).

Exit status: 0 a culprit was found; 1 none was (out of steps, undecided
candidates); 2 bad input.`,
		Example: `  sqlbench bisect --target mattn --good v1.14.22 --bad v1.14.52 \
      --workload PreparedQueryRow --measure allocs/op
  sqlbench bisect --target mattn --checkout ~/src/go-sqlite3 --good v1.14.22 --bad master \
      --workload SimpleQueryRow --measure time --count 10`,
		Args: noArgs,
	}
	o := bisectOptions{Cache: session.DefaultCache()}
	fs := c.Flags()
	fs.SortFlags = false
	fs.StringVar(&o.Target, "target", "", "the catalogue target whose driver is bisected (sqlbench list)")
	fs.StringVar(&o.Good, "good", "", "the good end: a release (v1.14.22), or with --checkout a commit, tag or branch")
	fs.StringVar(&o.Bad, "bad", "", "the bad end, after --good")
	fs.StringVar(&o.Checkout, "checkout", "",
		"a git checkout of the driver's module: bisect its commits instead of releases")
	fs.StringVar(&o.Workload, "workload", "",
		"the workload that changed: one workload (name or ID) of one cell per target")
	fs.StringVar(&o.Measure, "measure", "", "the measure that changed: allocs/op, B/op (exact), or time (ns/op, ops/s)")
	fs.IntVar(&o.MaxSteps, "max-steps", 0, "probe at most this many candidates (default: as many as the search needs)")
	fs.IntVar(&o.Count, "count", 0, "timed runs per cell of each step (default 5 for allocs/op and B/op, 10 for time)")
	fs.IntVar(&o.MaxCount, "max-count", 0,
		"time: an undecided step is run again with twice the runs, up to this many (default 4 × --count)")
	fs.Float64Var(&o.Scale, "scale", session.DefaultScale, "multiplies the workload's operation count")
	fs.BoolVar(&o.Quick, "quick", false, fmt.Sprintf("smoke-sized steps: --scale %g unless given, --slices %d",
		session.QuickScale, session.QuickSlices))
	fs.Var(&resolutionFlag{p: &o.Resolution, text: "5%"}, "resolution", resolutionUsage)
	fs.StringVarP(&o.Out, "output", "o", "", "directory for every step's results file (default "+
		"results/bisect-<time>); an existing one is refused unless --force")
	fs.BoolVar(&o.Force, "force", false, "write into an existing -o directory")
	fs.StringVar(&o.Cache, "cache", o.Cache,
		"where built runner binaries are kept (default: sqlbench/runners in the user cache directory)")
	fs.Lookup("cache").DefValue = ""
	fs.StringArrayVar(&o.DSNs, "dsn", nil,
		"use an existing server: DATABASE=DSN, repeatable; without one, sqlbench starts a throwaway server")
	quietFlag(c, env)
	c.RunE = func(c *cobra.Command, args []string) error {
		err := runBisect(ctx, c, o, commandLine(c, args), env)
		var ie bisect.InputError
		if errors.As(err, &ie) {
			return usagef("bisect: %s", ie.Msg)
		}
		return err
	}
	return c
}

// bisectRun is one bisection: its candidates, how each is named on the
// --targets list, and the session every step runs.
type bisectRun struct {
	opts  bisectOptions
	unit  string // allocs/op, B/op, or "time"
	spec  targets.Spec
	base  session.Config
	env   Env
	dir   string // the -o directory
	src   string // where commits are extracted ("" for releases)
	good  bisectEnd
	bad   bisectEnd
	cands []bisectEnd // oldest first, the bad end last
	steps int         // the steps probed so far
}

// bisectEnd is an end or a candidate: its name in the output, its
// --targets element, and (for a commit) the commit to extract.
type bisectEnd struct {
	label, element string
	commit         *bisect.Commit
}

// runBisect checks the flags, lists the candidates, and bisects.
func runBisect(ctx context.Context, c *cobra.Command, o bisectOptions, command []string, env Env) error {
	r, err := newBisectRun(ctx, c, o, command, env)
	if err != nil {
		return err
	}
	if r.src != "" {
		defer os.RemoveAll(r.src)
	}
	if err := r.check(ctx); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "bisect %s, %s, %s: %d candidates after %s up to %s; results in %s\n",
		o.Target, o.Workload, o.Measure, len(r.cands), r.good.label, r.bad.label, r.dir)
	out, err := bisect.Search(ctx, len(r.cands), o.MaxSteps, r.probe)
	if err != nil {
		if errors.Is(err, bisect.ErrEndsAlike) {
			return noCulprit{fmt.Sprintf("bisect: %v: nothing to bisect", err)}
		}
		return err
	}
	return r.conclude(out)
}

// newBisectRun reads the flags into a bisectRun; bad input is an error
// naming it.
func newBisectRun(ctx context.Context, c *cobra.Command, o bisectOptions, command []string,
	env Env) (*bisectRun, error) {
	for _, f := range [][2]string{{"target", o.Target}, {"good", o.Good}, {"bad", o.Bad},
		{"workload", o.Workload}, {"measure", o.Measure}} {
		if f[1] == "" {
			return nil, usagef("bisect: --%s is required", f[0])
		}
	}
	unit, ok := bisectMeasures[o.Measure]
	if !ok {
		return nil, usagef("bisect: --measure %q: unknown measure (valid: allocs/op, B/op, ns/op, ops/s, time)",
			o.Measure)
	}
	spec, ok := targets.Lookup(o.Target)
	if !ok {
		return nil, usagef("bisect: --target %q: unknown target (sqlbench list names them)", o.Target)
	}
	if spec.JVM || spec.Module == "" {
		return nil, usagef("bisect: --target %s: not a Go driver module sqlbench builds at other versions", o.Target)
	}
	exact := unit != "time"
	if err := bisectIdle(c, exact, spec); err != nil {
		return nil, err
	}
	switch {
	case o.Count == 0 && exact:
		o.Count = session.QuickCount
	case o.Count == 0:
		o.Count = 10
	}
	if o.MaxCount == 0 {
		o.MaxCount = 4 * o.Count
	}
	if o.MaxSteps < 0 || o.MaxCount < o.Count {
		return nil, usagef("bisect: --max-steps must be 0 or more, --max-count at least --count")
	}
	cfg := session.Defaults()
	cfg.DBs, cfg.Workloads, cfg.Count, cfg.Cache = []bench.DB{spec.DB}, []string{o.Workload}, o.Count, o.Cache
	cfg.Scale, cfg.Nets, cfg.Resolution, cfg.Command = o.Scale, []string{"tcp"}, o.Resolution, command
	if o.Quick {
		cfg.Quick(set(c, "scale"), true, false)
	}
	if err := cfg.CheckRanges(); err != nil {
		return nil, err
	}
	dsns, err := parseDSNFlags(o.DSNs)
	if err != nil {
		return nil, err
	}
	cfg.DSNs = dsns
	r := &bisectRun{opts: o, unit: unit, spec: spec, base: *cfg, env: env}
	if err := r.candidates(ctx); err != nil {
		return nil, err
	}
	r.dir = o.Out
	if r.dir == "" {
		r.dir = filepath.Join("results", "bisect-"+time.Now().Format("20060102-150405"))
	}
	if !filepath.IsAbs(r.dir) {
		r.dir = filepath.Join(env.Dir, r.dir)
	}
	if _, err := os.Stat(r.dir); err == nil && !o.Force {
		if r.src != "" {
			os.RemoveAll(r.src)
		}
		return nil, usagef("bisect: -o %s exists (--force writes into it)", r.dir)
	}
	return r, nil
}

// bisectIdle refuses a flag given on c that would do nothing: --force
// without -o, --max-count and --resolution for an exact measure, --dsn
// for a target without a server.
func bisectIdle(c *cobra.Command, exact bool, spec targets.Spec) error {
	var idle []string
	why := map[string]string{}
	for flag, does := range map[string]struct {
		nothing bool
		why     string
	}{
		"force":      {!set(c, "output"), "only for an -o directory"},
		"max-count":  {exact, "only for --measure time"},
		"resolution": {exact, "only for --measure time"},
		"dsn":        {!spec.DB.SQL() || spec.DB == bench.SQLite, "only for a target of a server"},
	} {
		if does.nothing && set(c, flag) {
			idle, why[flag] = append(idle, flag), does.why
		}
	}
	if len(idle) == 0 {
		return nil
	}
	slices.Sort(idle)
	return usagef("bisect: --%s: %s", idle[0], why[idle[0]])
}

// candidates lists the releases or commits to search and the ends.
func (r *bisectRun) candidates(ctx context.Context) error {
	o := r.opts
	if o.Checkout == "" {
		goCmd, err := r.env.LookPath("go")
		if err != nil {
			return usagef("bisect: listing the releases needs the Go toolchain: %v", err)
		}
		vs, err := bisect.Versions(ctx, goCmd, r.env.Dir, r.spec.Module, o.Good, o.Bad)
		if err != nil {
			return err
		}
		r.good = bisectEnd{label: o.Good, element: o.Target + "@" + o.Good}
		for _, v := range vs {
			r.cands = append(r.cands, bisectEnd{label: v, element: o.Target + "@" + v})
		}
		r.bad = r.cands[len(r.cands)-1]
		return nil
	}
	repo := o.Checkout
	if !filepath.IsAbs(repo) {
		repo = filepath.Join(r.env.Dir, repo)
	}
	goodEnd, list, err := bisect.Commits(ctx, repo, o.Good, o.Bad)
	if err != nil {
		return err
	}
	if r.src, err = os.MkdirTemp("", "sqlbench-bisect-"); err != nil {
		return err
	}
	commit := func(c bisect.Commit) bisectEnd {
		el := o.Target + "@" + filepath.Join(r.src, c.Short())
		return bisectEnd{label: c.Short() + " " + c.Subject, element: el, commit: &c}
	}
	r.good = commit(goodEnd)
	for _, c := range list {
		r.cands = append(r.cands, commit(c))
	}
	r.bad = r.cands[len(r.cands)-1]
	return nil
}

// extract writes a commit's tree where its element points, once.
func (r *bisectRun) extract(ctx context.Context, e bisectEnd) error {
	if e.commit == nil {
		return nil
	}
	dir := strings.TrimPrefix(e.element, r.opts.Target+"@")
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	return bisect.Extract(ctx, r.opts.Checkout, *e.commit, dir)
}

// check plans a session of the two ends before anything is built: the
// target must run here, and the workload must be one cell of it.
func (r *bisectRun) check(ctx context.Context) error {
	if r.opts.Checkout != "" && !filepath.IsAbs(r.opts.Checkout) {
		r.opts.Checkout = filepath.Join(r.env.Dir, r.opts.Checkout)
	}
	for _, e := range []bisectEnd{r.good, r.bad} {
		if err := r.extract(ctx, e); err != nil {
			return err
		}
	}
	cfg := r.base
	cfg.Targets = []string{r.good.element, r.bad.element}
	p, err := session.NewPlan(&cfg, r.env.session())
	if err != nil {
		return err
	}
	for name, why := range p.Skipped {
		return usagef("bisect: %s cannot run here: %s", name, why)
	}
	steps, err := p.Preview(&cfg)
	if err != nil {
		return err
	}
	cells := map[string]bool{}
	for _, st := range steps {
		cells[st.Cell.Name()] = true
	}
	if len(cells) != 2 {
		return usagef("bisect: --workload %s is %d cells per target here; name one workload of one cell",
			r.opts.Workload, len(cells)/2)
	}
	return os.MkdirAll(r.dir, 0o755)
}

// probe measures candidate i beside both ends, in sessions of more runs
// while a time verdict is undecided.
func (r *bisectRun) probe(ctx context.Context, i int) (bisect.Step, error) {
	cand := r.cands[i]
	r.steps++
	if err := r.extract(ctx, cand); err != nil {
		return bisect.Step{}, err
	}
	n := 0
	var files []string
	for count := r.base.Count; ; count *= 2 {
		n++
		st, file, err := r.session(ctx, cand, count, n)
		files = append(files, file)
		st.Candidate, st.Results = cand.label, files
		if err != nil || st.Verdict != bisect.Undecided || r.unit != "time" || 2*count > r.opts.MaxCount {
			if err == nil {
				r.printStep(len(files), st, count)
			}
			return st, err
		}
		fmt.Fprint(r.env.Stdout, textlayout.Wrap(fmt.Sprintf(
			"step %d: %s: undecided at %d runs (%s); again with %d runs",
			r.steps, r.short(cand.label), count, st.Detail, 2*count), textlayout.Width, "    "))
	}
}

// session runs one session of the ends and candidate cand with count runs
// per cell, its results in the step's file, and judges the candidate.
func (r *bisectRun) session(ctx context.Context, cand bisectEnd, count, attempt int) (bisect.Step, string, error) {
	cfg := r.base
	cfg.Count = count
	cfg.Targets = []string{r.good.element, cand.element, r.bad.element}
	name := fmt.Sprintf("step-%02d-%s", r.steps, labelFile(cand.label))
	if attempt > 1 {
		name += fmt.Sprintf("-%druns", count)
	}
	cfg.Out = filepath.Join(r.dir, name+".txt")
	cfg.Force = r.opts.Force
	out, err := session.Run(ctx, &cfg, r.env.session())
	if err != nil {
		return bisect.Step{}, cfg.Out, err
	}
	names := make([]string, 3)
	for _, t := range out.Plan.Runnable {
		for k, el := range cfg.Targets {
			if variantElement(t, el) {
				names[k] = t.Name
			}
		}
	}
	rep := out.Report
	var cells [3]*report.Cell
	var table *report.Table
	for _, t := range rep.Tables() {
		for _, row := range t.Rows {
			for k, n := range names {
				if c := t.Cell(row, n); c != nil {
					cells[k], table = c, t
				}
			}
		}
	}
	if cells[0] == nil || cells[2] == nil {
		return bisect.Step{}, cfg.Out, fmt.Errorf("step %d: an end did not run (%s): see %s",
			r.steps, whyNot(out, names), cfg.Out)
	}
	if cells[1] == nil {
		return bisect.Step{Verdict: bisect.Undecided, Detail: "did not run: " + whyNot(out, names[1:2])}, cfg.Out, nil
	}
	c := bisect.Cells{Good: cells[0], Candidate: cells[1], Bad: cells[2]}
	if r.unit != "time" {
		st, err := bisect.JudgeExact(r.unit, c)
		return st, cfg.Out, err
	}
	ratio := func(col, base string) report.Ratio {
		for _, q := range table.Ratios(base) {
			if q.Col == col && q.Row == cells[1].Row() {
				return q
			}
		}
		return report.Ratio{}
	}
	p := report.ResolutionOr(r.opts.Resolution, report.DefaultResolution)
	st := bisect.JudgeTime(ratio(names[1], names[0]), ratio(names[1], names[2]), ratio(names[2], names[0]), p)
	return st, cfg.Out, nil
}

// variantElement reports whether target t is the one --targets element el
// names: a release's name is the element; a checkout's ends in its
// directory's base name.
func variantElement(t targets.Spec, el string) bool {
	_, v, _ := strings.Cut(el, "@")
	return t.Version == v || filepath.IsAbs(v) && t.Version == filepath.Clean(v)
}

// whyNot says why the named targets have no results: skipped, or failed.
func whyNot(out *session.Outcome, names []string) string {
	var why []string
	for _, n := range names {
		if n == "" {
			continue
		}
		if s, ok := out.Plan.Skipped[n]; ok {
			why = append(why, n+": "+s)
		}
	}
	for _, f := range out.Failed {
		why = append(why, f.Name+": "+f.Reason)
	}
	if len(why) == 0 {
		return "no results"
	}
	return oneLine(strings.Join(why, "; "))
}

// labelFile makes a candidate's label a file name's part: its first word
// (a version, a short hash).
func labelFile(label string) string {
	first, _, _ := strings.Cut(label, " ")
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' {
			return '-'
		}
		return r
	}, first)
}

// printStep writes one step of the path: its number, the candidate, the
// measure, the verdict, what it showed and its results file.
func (r *bisectRun) printStep(attempts int, st bisect.Step, count int) {
	runs := fmt.Sprintf("%d runs", count)
	if attempts > 1 {
		runs += fmt.Sprintf(", %d sessions", attempts)
	}
	fmt.Fprint(r.env.Stdout, textlayout.Wrap(fmt.Sprintf("step %d: %s: %s: %s (%s)", r.steps, r.short(st.Candidate),
		st.Verdict, st.Detail, runs), textlayout.Width, "    ")+"  results: "+st.Results[len(st.Results)-1]+"\n")
}

// short is a candidate's label without a commit's subject.
func (r *bisectRun) short(label string) string {
	first, _, _ := strings.Cut(label, " ")
	return first
}

// conclude prints the path the search took and the culprit, and writes
// both beside the steps' results as bisect.txt.
func (r *bisectRun) conclude(o bisect.Outcome) error {
	var b strings.Builder
	fmt.Fprintf(&b, "bisect %s, %s, %s, good %s, bad %s\n",
		r.opts.Target, r.opts.Workload, r.opts.Measure, r.good.label, r.bad.label)
	if len(o.Steps) == 1 {
		b.WriteString("path (1 step):\n")
	} else {
		fmt.Fprintf(&b, "path (%d steps):\n", len(o.Steps))
	}
	for k, st := range o.Steps {
		b.WriteString(textlayout.Wrap(fmt.Sprintf("  %d. %s: %s: %s", k+1, st.Candidate, st.Verdict, st.Detail),
			textlayout.Width, "       "))
		fmt.Fprintf(&b, "     %s\n", strings.Join(st.Results, "\n     "))
	}
	lastGood := r.good.label
	if o.LastGood >= 0 {
		lastGood = r.cands[o.LastGood].label
	}
	var err error
	if o.Found {
		culprit := r.cands[o.FirstBad].label
		b.WriteString(textlayout.Wrap(fmt.Sprintf(
			"culprit: %s (first like the bad end; the one before it, %s, is like the good end)",
			culprit, lastGood), textlayout.Width, "  "))
		if st, ok := stepOf(o, o.FirstBad); ok {
			q := bisect.Ratio{Ratio: st.Ratio, Lo: st.Lo, Hi: st.Hi, Confidence: st.Confidence}
			fmt.Fprintf(&b, "  %s over %s's: %s\n", r.measureName(), r.good.label, ratioWithInterval(q))
		} else {
			line := "  it is the bad end itself (every candidate before it is like the good end)"
			if n := len(o.Steps); n > 0 {
				line += fmt.Sprintf("; in the last step, %s over %s's: %s", r.measureName(), r.good.label,
					ratioWithInterval(o.Steps[n-1].Ends))
			}
			b.WriteString(textlayout.Wrap(line, textlayout.Width, "    "))
		}
	} else {
		why := "every candidate left in the range was undecided"
		if o.OutOfSteps {
			why = fmt.Sprintf("out of steps (--max-steps %d)", r.opts.MaxSteps)
		}
		b.WriteString(textlayout.Wrap(fmt.Sprintf("no culprit: %s; the first change lies after %s, at or before %s",
			why, lastGood, r.cands[o.FirstBad].label), textlayout.Width, "  "))
		if r.unit == "time" {
			b.WriteString(textlayout.Wrap(fmt.Sprintf(
				"  a time verdict needs the candidate's interval within --resolution (%s) of one end, or on "+
					"that end's side of the halfway mark between the ends, and clear of the other end; more runs "+
					"(--count) narrow the intervals", report.FormatResolution(
					report.ResolutionOr(r.opts.Resolution, report.DefaultResolution))), textlayout.Width, "    "))
		}
		err = noCulprit{"bisect: no culprit: " + why}
	}
	fmt.Fprintf(&b, "every step's results: %s\n", r.dir)
	fmt.Fprint(r.env.Stdout, "\n"+b.String())
	if werr := os.WriteFile(filepath.Join(r.dir, "bisect.txt"), []byte(b.String()), 0o644); werr != nil && err == nil {
		err = werr
	}
	return err
}

// measureName names what the culprit's ratio is of.
func (r *bisectRun) measureName() string {
	if r.unit == "time" {
		return "ops/s"
	}
	return r.unit
}

// stepOf returns the step that probed candidate i.
func stepOf(o bisect.Outcome, i int) (bisect.Step, bool) {
	for k := len(o.Steps) - 1; k >= 0; k-- {
		if o.Steps[k].Index == i {
			return o.Steps[k], true
		}
	}
	return bisect.Step{}, false
}

// ratioWithInterval writes a ratio: "0.63× [0.62–0.63×] (95.0% confidence)".
func ratioWithInterval(st bisect.Ratio) string {
	if st.Lo == 0 && st.Hi == 0 {
		return report.FormatRatio(st.Ratio) + " (no interval)"
	}
	return fmt.Sprintf("%s [%.2f–%s] (%.1f%% confidence)", report.FormatRatio(st.Ratio), st.Lo,
		report.FormatRatio(st.Hi), 100*st.Confidence)
}

// noCulprit is a bisection that ended without naming a culprit: exit
// status 1, as a session that did not run everything.
type noCulprit struct{ msg string }

func (e noCulprit) Error() string { return e.msg }

// Unwrap makes it an errPartial.
func (e noCulprit) Unwrap() error { return errPartial }
