package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/compare"
	"github.com/sqlbench/sqlbench/internal/drift"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/wake"
)

// errRegression marks a comparison that found a significant regression
// above --fail-over: exit status 1.
var errRegression = errors.New("significant regression above the --fail-over threshold")

// compareCommand is sqlbench compare.
func compareCommand(env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "compare [flags] OLD NEW",
		Short: "compare two results files cell by cell, every unit (Mann-Whitney U test)",
		Long: `Compare prints, for every cell two results files have in common and every
unit they record (ops/s, ns/op, B/op, allocs/op, latency percentiles, ...), the
change of its median and whether it is significant (Mann-Whitney U test), with
the geometric mean of the medians, and a verdict: faster or slower (better or
worse) where the change is significant, equivalent where it is not and the
bootstrap interval of new÷old lies within --resolution (no change that
matters), else undecided. OLD and NEW are paths, or label=path pairs
that name the columns. --format markdown writes a table for a pull-request
comment, --format json (--json) one JSON object; --units narrows to the
units named.

Two sessions differ even when nothing changed: the machine moves every cell.
Per unit, compare takes the median of the cells' changes as the shift they
shared and their spread about it; --fail-over fails a cell only where its
change, with that shift taken out, is significant, beyond the threshold and
beyond 4 spreads. A shift beyond the threshold is noted, never failed: two
sessions cannot tell the machine from a change that moves every cell alike
(test that in one session holding both: NAME@VERSION, --baseline).

With --fail-over, compare refuses (exit 2) files whose settings differ in a
way that changes what the cells measure (count, slices, scale, warm-up, CPU
placement, driver and server versions, server and SQLite settings), naming
the difference; --allow-different compares them anyway, with a warning.

Compare also prints both sessions' wake-ups (the round trips timed before
each pass, # wakeup lines) and notes where their medians differ by more than
2x: a likely cause of changes in round-trip cells, which never fails the
gate by itself; and both sessions' drift loop (# drift: the same CPU work
timed before each pass), how much faster the CPU itself ran.`,
		Example: `  sqlbench compare results/before.txt results/after.txt
  sqlbench compare main=results/main.txt pr=results/pr.txt
  sqlbench compare --fail-over 5% results/main.txt results/pr.txt   # exit 1 on a regression over 5%
  sqlbench compare --fail-over ops/s=5%,B/op=10% --format markdown main.txt pr.txt
  sqlbench compare --units ns/op,allocs/op --json old.txt new.txt | jq '.units[].cells[]'`,
	}
	o := compareOptions{}
	c.Flags().StringVar(&o.failOver, "fail-over", "", "exit 1 when a significant regression exceeds a change of the "+
		"median: 5% (ops/s, or ns/op), or per unit, e.g. ops/s=5%,B/op=10%,p99=20%")
	c.Flags().StringVar(&o.format, "format", "text", "output: text, markdown (for a pull-request comment) or json")
	c.Flags().BoolVar(&o.md, "md", false, "same as --format markdown")
	c.Flags().BoolVar(&o.json, "json", false, "same as --format json")
	c.Flags().StringVar(&o.units, "units", "",
		"compare only these units, comma-separated, in this order: ops/s,ns/op,B/op,allocs/op,p99 ... (default: "+
			"every unit)")
	c.Flags().StringVar(&o.baseline, "baseline", "", "also set every target against this one in each file (ops/s ÷ "+
		"the baseline's, paired by pass) and say where its standing moved")
	c.Flags().Var(&resolutionFlag{p: &o.resolution, text: "5%"}, "resolution",
		"the smallest change of a median that matters, a fraction or "+
			"a percentage: a change that is not significant and whose interval lies within it is equivalent (no "+
			"change "+
			"that matters), "+
			"else undecided; with --baseline, the same for each ratio's change (docs/methodology.md)")
	c.Flags().BoolVar(&o.allowDifferent, "allow-different", false, "gate (--fail-over) files whose settings differ "+
		"in what they measure (scale, count, versions, ...), with a warning, instead of refusing them")
	c.RunE = func(c *cobra.Command, operands []string) error {
		if err := compareNoops(c); err != nil {
			return err
		}
		return compareFiles(operands, o, env)
	}
	return c
}

// compareOptions are compare's flags.
type compareOptions struct {
	failOver, format, baseline, units string
	md, json, allowDifferent          bool
	resolution                        float64
}

// compareFiles compares two results files (or label=path pairs) cell by
// cell.
func compareFiles(operands []string, o compareOptions, env Env) error {
	if len(operands) != 2 {
		return usagef("compare: name two results files: OLD NEW (or label=path pairs)")
	}
	if o.md {
		o.format = "markdown"
	}
	if o.json {
		o.format = "json"
	}
	if o.format != "text" && o.format != "markdown" && o.format != "json" {
		return usagef("compare: --format: want text, markdown or json, got %q", o.format)
	}
	var err error
	if o.baseline, err = checkBaseline(o.baseline); err != nil {
		return err
	}
	var th compare.Thresholds
	if o.failOver != "" {
		var err error
		if th, err = compare.ParseThresholds(o.failOver); err != nil {
			return usagef("compare: --fail-over: %v", err)
		}
	}
	oldLabel, oldPath := labelPath(operands[0], "old")
	newLabel, newPath := labelPath(operands[1], "new")
	oldRs, err := readResults([]string{oldPath}, env.Stderr)
	if err != nil {
		return err
	}
	newRs, err := readResults([]string{newPath}, env.Stderr)
	if err != nil {
		return err
	}
	same := sameSessionNote(oldLabel, oldPath, oldRs, newLabel, newPath, newRs)
	if diffs := compare.SettingDifferences(oldRs, newRs); len(diffs) > 0 {
		more := ""
		if len(diffs) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(diffs)-1)
		}
		what := fmt.Sprintf("%s and %s were measured under different settings, %s%s", oldPath, newPath, diffs[0], more)
		if th != nil && !o.allowDifferent {
			return usagef("compare: --fail-over: %s: a change between them is not the code's alone; run both under "+
				"the same settings, or pass --allow-different", what)
		}
		fmt.Fprintf(env.Stderr, "warning: %s\n", what)
	}
	var ratios []compare.RatioChange
	if o.baseline != "" {
		var ok bool
		ratios, ok = compare.RatioChanges(report.New(oldRs, nil, session.WorkloadInfo),
			report.New(newRs, nil, session.WorkloadInfo), o.baseline)
		if !ok {
			return usagef("compare: --baseline: %s is in no table of %s beside another target", o.baseline, oldPath)
		}
	}
	cs := compare.Units(oldLabel, oldRs, newLabel, newRs)
	cs.SetResolution(o.resolution)
	if cs.Compared() == 0 {
		return usagef("compare: %s and %s have no cell in common", oldPath, newPath)
	}
	if th, err = cs.Resolve(th); err != nil {
		return usagef("compare: --fail-over: %v", err)
	}
	if o.units != "" {
		if cs, err = cs.Only(strings.Split(o.units, ",")); err != nil {
			return usagef("compare: --units: %v", err)
		}
		for unit := range th {
			if cs.Unit(unit) == nil {
				return usagef("compare: --fail-over gates %s, which --units leaves out", unit)
			}
		}
	}
	if few := cs.Undecidable(th); len(few) > 0 {
		ch, cells := few[0], map[string]bool{}
		for _, f := range few {
			cells[f.Name] = true
		}
		return usagef("compare: --fail-over can never fire: %d of %d cells have too few runs for a Mann-Whitney U "+
			"test at alpha %g to find any change significant (%s: %d old, %d new); it needs at least %d runs per "+
			"side (run --count %d)",
			len(cells), cs.Compared(), compare.Alpha, report.CellLabel(ch.Name), ch.OldN, ch.NewN, compare.MinRuns(),
			compare.MinRuns())
	}
	if same != "" { // at the top of what compare prints; the Markdown stays a pull-request comment, the JSON one object
		if o.format != "text" {
			fmt.Fprintln(env.Stderr, same)
		} else {
			fmt.Fprintln(env.Stdout, same)
		}
	}
	switch o.format {
	case "markdown":
		err = cs.Markdown(env.Stdout, th)
	case "json":
		err = cs.JSON(env.Stdout, th)
	default:
		err = cs.Text(env.Stdout, th)
	}
	if err != nil {
		return err
	}
	wakeOut := env.Stdout
	if o.format != "text" {
		wakeOut = env.Stderr // the Markdown stays a pull-request comment, the JSON one object
	}
	if o.baseline != "" {
		if err := writeRatioChanges(wakeOut, o.baseline, ratios, oldLabel, newLabel, env.tableWidth(),
			o.resolution); err != nil {
			return err
		}
	}
	compareWakeups(wakeOut, oldLabel, oldRs, newLabel, newRs)
	compareDrift(wakeOut, oldLabel, oldRs, newLabel, newRs)
	for _, u := range cs.ShiftsWorse(th) {
		fmt.Fprintf(env.Stderr, "note: %s: every cell moved alike by %s, beyond the %g%% threshold:\n", u.Unit, u.Shift,
			100*u.Threshold)
		fmt.Fprintln(env.Stderr,
			"  the machine, or a change that moves every cell alike; two sessions cannot tell them apart,")
		fmt.Fprintln(env.Stderr,
			"  so it fails no cell. Test such a change in one session holding both (NAME@VERSION, --baseline)")
	}
	if regs := cs.Regressions(th); len(regs) > 0 {
		for _, ch := range regs {
			fmt.Fprintf(env.Stderr, "regression: %s %s %s (p=%.3f, threshold %g%%)\n",
				report.CellLabel(ch.Name), ch.Unit, ch.DeltaString(), ch.P, 100*ch.Threshold)
			if ch.ShiftShare > 0 {
				fmt.Fprintf(env.Stderr, "  %.0f%% of it is the shift every cell shared; %+.1f%% beyond it (p=%.3f)\n",
					100*ch.ShiftShare, 100*ch.Beyond, ch.BeyondP)
			}
		}
		return errRegression
	}
	return nil
}

// sameSessionNote says, in one line, that old and new hold results of one
// session (benchfile.SameSession): the same file named twice, a copy, or
// copies taken at two moments of one session. Their changes are then no
// measure of anything; "" when they are of two sessions.
func sameSessionNote(oldLabel, oldPath string, oldRs []*benchfmt.Result,
	newLabel, newPath string, newRs []*benchfmt.Result) string {
	o := benchfile.SameSession(oldRs, newRs)
	if o.Session == "" {
		return ""
	}
	what := fmt.Sprintf("the same %d runs", o.Shared)
	if o.Shared != o.A || o.Shared != o.B {
		what = fmt.Sprintf("%d runs in both, of %d in %s and %d in %s", o.Shared, o.A, oldLabel, o.B, newLabel)
	}
	files := fmt.Sprintf("%s and %s", oldPath, newPath)
	if oldPath == newPath {
		files = fmt.Sprintf("%s (%s and %s)", oldPath, oldLabel, newLabel)
	}
	return fmt.Sprintf(
		"note: %s hold one session's runs (%s, %s): this compares a session with itself, not two sessions",
		files, o.Session, what)
}

// labelPath splits a label=path operand; a bare path is labelled with def.
func labelPath(arg, def string) (label, path string) {
	if l, p, ok := strings.Cut(arg, "="); ok && l != "" && !strings.ContainsAny(l, "/\\") {
		return l, p
	}
	return def, arg
}

// wakeFactor is how far apart two sessions' wake-up medians must be for
// compare to name them as a likely cause: more than the 1.6x that
// sixteen default sessions within a quarter of an hour on a shared VM
// spanned (docs/methodology.md).
const wakeFactor = 2.0

// compareWakeups prints the wake-up round trips each file recorded
// (wake.Recorder's "wakeup" line) and, when their medians differ by more
// than wakeFactor, a note naming the difference as a likely cause of the
// cells' changes. The note never fails the gate by itself.
func compareWakeups(w io.Writer, oldLabel string, oldRs []*benchfmt.Result, newLabel string, newRs []*benchfmt.Result) {
	oldLine, newLine := recordedWakeups(oldRs), recordedWakeups(newRs)
	if oldLine == "" && newLine == "" {
		return
	}
	width := max(len(oldLabel), len(newLabel))
	fmt.Fprintln(w, "\nwake-ups (a round trip waking a thread on another CPU, median/p90):")
	for _, s := range [][2]string{{oldLabel, oldLine}, {newLabel, newLine}} {
		fmt.Fprintf(w, "  %-*s  %s\n", width, s[0], cmp.Or(s[1], "not recorded (a file of an earlier sqlbench)"))
	}
	diffs := wake.Differences(wake.Parse(oldLine), wake.Parse(newLine), wakeFactor)
	if len(diffs) == 0 {
		return
	}
	fmt.Fprintf(w, "note: wake-ups differ by more than %g×, a likely cause of changes in round-trip cells\n",
		wakeFactor)
	fmt.Fprintln(w, "  (the machine woke its CPUs at another speed; not counted against --fail-over):")
	for _, d := range diffs {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

// recordedWakeups returns the wakeup line of the first result that has
// one, without its trailing remark in brackets.
func recordedWakeups(rs []*benchfmt.Result) string {
	v, _, _ := strings.Cut(recordedFact(rs, "wakeup"), " (")
	return v
}

// compareDrift prints the drift loop's median time in each file (the same
// CPU work timed before every pass, # drift lines; a smoke session's
// shorter probe scaled to drift.DefaultWork steps) and their ratio: how
// much faster or slower the CPU itself ran in one session than in the
// other, beside the shift every cell shared.
func compareDrift(w io.Writer, oldLabel string, oldRs []*benchfmt.Result, newLabel string, newRs []*benchfmt.Result) {
	oldMS, oldOK := drift.ParseFact(recordedFact(oldRs, "drift"))
	newMS, newOK := drift.ParseFact(recordedFact(newRs, "drift"))
	if !oldOK && !newOK {
		return
	}
	width := max(len(oldLabel), len(newLabel))
	fmt.Fprintf(w, "\ndrift loop (the same CPU work timed before each pass, median, for %d steps):\n",
		drift.DefaultWork)
	for _, s := range []struct {
		label string
		ms    float64
		ok    bool
	}{{oldLabel, oldMS, oldOK}, {newLabel, newMS, newOK}} {
		v := "not recorded (a file of an earlier sqlbench)"
		if s.ok {
			v = fmt.Sprintf("%.2f ms", s.ms)
		}
		fmt.Fprintf(w, "  %-*s  %s\n", width, s.label, v)
	}
	if oldOK && newOK {
		fmt.Fprintf(w, "  %s took %+.1f%% time for the same work: what the CPU alone shifts a CPU-bound cell\n",
			newLabel, 100*(newMS/oldMS-1))
	}
}

// recordedFact returns the value of key in the first result that has it.
func recordedFact(rs []*benchfmt.Result, key string) string {
	for _, r := range rs {
		if v := r.GetConfig(key); v != "" {
			return v
		}
	}
	return ""
}

// writeRatioChanges prints every target's ratio to baseline in each file,
// as run --baseline does, side by side with the change of each ratio: a
// target's standing against a baseline both sessions ran, which the
// machine's shift between the sessions does not move.
func writeRatioChanges(w io.Writer, baseline string, changes []compare.RatioChange, oldLabel, newLabel string,
	width int, p float64) error {
	fmt.Fprintln(w)
	if len(changes) == 0 {
		fmt.Fprintf(w, "no ratio to %s in both files: their other targets differ\n", baseline)
		return nil
	}
	if err := compare.WriteRatioChanges(w, oldLabel, newLabel, changes, width,
		report.ResolutionOr(p, report.DefaultResolution)); err != nil {
		return fmt.Errorf("write the ratio changes: %w", err)
	}
	return nil
}
