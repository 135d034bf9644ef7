package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
)

// printOutcome prints what a session did: the tables of its results (the
// ratio tables against the session's baseline), the failed cells, the CPU
// steal, the machine's drift and its wake-ups during it, and where its
// results and reports are; its tables fit in width columns (0: each
// whole).
func printOutcome(w io.Writer, out *session.Outcome, width int) error {
	fmt.Fprintln(w)
	r := report.New(out.Done, out.Failed, session.WorkloadInfo)
	r.Baseline, r.Resolution, r.Width = out.Baseline, out.Resolution, width
	if err := report.Text(w, r); err != nil {
		return err
	}
	if out.StealKnown {
		fmt.Fprintf(w, "\ncpu steal during the run: %.0f%% of CPU time went to other guests of the hypervisor", 100*out.Steal)
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
		fmt.Fprint(w, report.WrapText(fmt.Sprintf("machine drift: the same CPU loop, timed before each of the %d passes %s, varied %.1f%% pass to pass and %.1f%% run to run (averaged over each run's passes): the spread this machine alone gives a run",
			f.Passes, where, 100*f.PassCV, 100*f.RunCV), report.TextWidth, "  "))
	}
	if out.Wake != nil {
		idle := "CPUs idle as the kernel's idle driver picks (--idle-latency low keeps them out of deep idle)"
		if out.IdleLow {
			idle = "CPUs held out of deep idle (--idle-latency low)"
		}
		fmt.Fprintf(w, "wake-ups: a round trip waking a thread on another CPU, median/p90, before each of %d passes:\n  %s\n  %s\n",
			out.WakePasses, out.Wake, idle)
	}
	if out.CPUShort != "" {
		fmt.Fprintf(w, "too few CPUs: %s\n", out.CPUShort)
	}
	fmt.Fprintf(w, "\nresults: %s (%d runs)\n", out.Results, out.Runs)
	if len(out.Reports) > 0 {
		fmt.Fprintf(w, "reports: %s\n", strings.Join(out.Reports, ", "))
	}
	return nil
}
