package cli

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// outcomeView is how printOutcome shows a session.
type outcomeView struct {
	// Width is the columns the tables fit in (0: each whole).
	Width int
	// Details prints every table and every fact of the machine (run
	// --details), as sqlbench report does.
	Details bool
	// Next adds the lines of what to do next (run).
	Next bool
	// Dir is the working directory, which the paths printed are relative
	// to where they are inside it.
	Dir string
}

// printOutcome prints what a session did from the report the session built
// (out.Report, at v.Width). By default it is what a person
// reads (report.Brief): the ops/s tables, the verdicts, the machine's
// noise in one line, what was wrong with the machine, where the results
// and reports are, and with v.Next what to do next; with v.Details, every
// table of its results (report.Text) and the machine's steal, drift and
// wake-ups in full.
func printOutcome(w io.Writer, out *session.Outcome, v outcomeView) error {
	fmt.Fprintln(w)
	r := out.Report
	r.Width = v.Width
	if !v.Details {
		if err := report.Brief(w, r); err != nil {
			return err
		}
		printNoise(w, r, out)
	} else if err := report.Text(w, r); err != nil {
		return err
	} else {
		printMachine(w, out)
	}
	if out.CPUShort != "" {
		fmt.Fprintf(w, "too few CPUs: %s\n", out.CPUShort)
	}
	if out.Spent != nil { // a budgeted session: what it spent and decided
		fmt.Fprint(w, textlayout.Wrap("\n"+out.Spent.String(), cmp.Or(r.Width, textlayout.Width), "  "))
	}
	fmt.Fprintf(w, "\nresults: %s (%d runs)\n", v.rel(out.Results), out.Runs)
	if len(out.Reports) > 0 {
		var rs []string
		for _, p := range out.Reports {
			rs = append(rs, v.rel(p))
		}
		fmt.Fprintf(w, "reports: %s\n", strings.Join(rs, ", "))
	}
	if v.Next {
		printNext(w, out, v)
	}
	return nil
}

// rel is path relative to the working directory where it is inside it
// (results/x.txt), else path as it is.
func (v outcomeView) rel(path string) string {
	if r, err := filepath.Rel(v.Dir, path); v.Dir != "" && filepath.IsAbs(path) && err == nil && r != ".." &&
		!strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return path
}

// printNoise says in one line how much the session's runs varied, and
// how much of it the machine alone gives (its drift, the CPU steal),
// warning where the steal is enough to widen the intervals.
func printNoise(w io.Writer, r *report.Report, out *session.Outcome) {
	var parts []string
	if med, worst, ok := r.Spread(); ok {
		parts = append(parts, fmt.Sprintf("ops/s varied run to run by %.1f%% (median CV), at worst %.1f%% (%s %s)",
			100*med.CV, 100*worst.CV, worst.Row(), worst.Column()))
	}
	if f := out.Drift; f != nil {
		parts = append(parts, fmt.Sprintf("the machine alone %.1f%% (a CPU loop timed before each of the %d passes)",
			100*f.RunCV, f.Passes))
	}
	if out.StealKnown {
		steal := fmt.Sprintf("CPU steal %.0f%%", 100*out.Steal)
		if out.Steal > 0.05 {
			steal += " (expect wide intervals; compare ratios within one run)"
		}
		parts = append(parts, steal)
	}
	if len(parts) > 0 {
		fmt.Fprint(w, textlayout.Wrap("\nnoise: "+strings.Join(parts, "; "), cmp.Or(r.Width, textlayout.Width), "  "))
	}
}

// printMachine prints the machine's facts over the session: the CPU
// steal, its drift and its wake-ups.
func printMachine(w io.Writer, out *session.Outcome) {
	if out.StealKnown {
		fmt.Fprintf(w, "\ncpu steal during the run: %.0f%% of CPU time went to other guests of the hypervisor",
			100*out.Steal)
		if out.Steal > 0.05 {
			fmt.Fprint(w, " (expect wide intervals; compare ratios within one run)")
		}
		fmt.Fprintln(w)
	}
	if f := out.Drift; f != nil {
		where := "wherever the scheduler put it"
		if out.DriftPinned {
			where = "on the runner's CPUs"
		}
		fmt.Fprint(w, textlayout.Wrap(fmt.Sprintf("machine drift: the same CPU loop, timed before each of the %d "+
			"passes %s, varied %.1f%% pass to pass and %.1f%% run to run (averaged over each run's passes): the "+
			"spread this machine alone gives a run",
			f.Passes, where, 100*f.PassCV, 100*f.RunCV), textlayout.Width, "  "))
	}
	if out.Wake != nil {
		idle := "CPUs idle as the kernel's idle driver picks (--idle-latency low keeps them out of deep idle)"
		switch {
		case out.IdleLow:
			idle = "CPUs held out of deep idle (--idle-latency low)"
		case out.IdleKept != "":
			idle = "CPUs idle as the kernel's idle driver picks: " + out.IdleKept
		}
		fmt.Fprintf(w, "wake-ups: a round trip waking a thread on another CPU, median/p90, before each of %d "+
			"passes:\n  %s\n%s",
			out.WakePasses, out.Wake, textlayout.Wrap("  "+idle, textlayout.Width, "    "))
	}
}

// printNext says what to do next with a session's results: open the
// HTML report, compare a later run with this one, gate CI on a regression
// (compare --fail-over). The commands have lines of their own, whole, so
// that they can be copied.
func printNext(w io.Writer, out *session.Outcome, v outcomeView) {
	if out.Runs == 0 || len(out.Reports) == 0 || out.Journal != "" {
		return // nothing to compare, the results went to stdout, or the session is to be resumed
	}
	results := v.rel(out.Results)
	fmt.Fprint(w,
		textlayout.Wrap("\nnext: open the HTML report (every table, the charts); compare a later run, NEW.txt, "+
			"with this one; in CI, fail (exit 1) on a regression of over 5%:", cmp.Or(v.Width, textlayout.Width), "  "))
	for _, p := range out.Reports {
		if strings.HasSuffix(p, ".html") {
			fmt.Fprintf(w, "  %s\n", v.rel(p))
		}
	}
	fmt.Fprintf(w, "  sqlbench compare %s NEW.txt\n", results)
	fmt.Fprintf(w, "  sqlbench compare --fail-over 5%% %s NEW.txt\n", results)
}
