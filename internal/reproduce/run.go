package reproduce

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/report"
	"github.com/sqlbench/sqlbench/studies"
	"github.com/sqlbench/sqlbench/targets"
)

// ErrNothingRuns is returned when no comparison of the study can run here
// (the reasons are the plan's gaps).
var ErrNothingRuns = errors.New("nothing of the study can run here (see the reasons above)")

// Run reproduces the study p plans: one session (session.Run, which starts
// the servers, builds the runners and writes the results file and its
// reports, the published table among them). The Outcome is nil when
// nothing of the study can run here.
func Run(ctx context.Context, p *Plan, env session.Env) (*session.Outcome, error) {
	if !p.Runnable() {
		return nil, ErrNothingRuns
	}
	for _, t := range p.Config.Targets {
		if lookupJVM(t) && len(p.Config.CPUs) > 0 {
			fmt.Fprintf(env.Log, "%s: GOMAXPROCS does not apply to the JDBC runner; its cells run once, without a -N suffix\n", t)
		}
	}
	return session.Run(ctx, p.Config, env)
}

// Table returns the study's published-beside-measured table from what the
// session measured (nil: nothing).
func Table(p *Plan, out *session.Outcome) *report.PublishedTable {
	var r *report.Report
	if out != nil {
		r = report.New(out.Done, out.Failed, session.WorkloadInfo)
	} else {
		r = report.New(nil, nil, session.WorkloadInfo)
	}
	return report.PublishedFor(r, p.Study)
}

// Print writes the study's heading, its published-beside-measured table
// and what of it did not run here, and why.
func Print(w io.Writer, p *Plan, t *report.PublishedTable) error {
	s := p.Study
	fmt.Fprintf(w, "\n%s\n", s.Title)
	fmt.Fprintf(w, "published: %s, %s (%s; %s)\n", s.Source.Document, s.Source.Table, s.Source.Date, s.Source.Machine)
	fmt.Fprintf(w, "measured here: %s, scale %g, %d runs per cell%s\n", strings.Join(p.Config.Command, " "), p.Config.Scale, p.Config.Count, conditions(p))
	fmt.Fprintf(w, "ratios: the first side's speed over the second's (above 1: the first is faster); measured = the median of the per-run ratios, with its confidence interval; agrees = the median on the same side of 1 and within ±%.0f%% of the published ratio; undecided = not, and the interval spans 1\n\n", 100*s.Tolerance)
	if err := report.PublishedText(w, t); err != nil {
		return err
	}
	agree, measured := 0, 0
	for _, row := range t.Rows {
		if row.Verdict != report.VerdictNotMeasured {
			measured++
		}
		if row.Verdict == report.VerdictAgrees {
			agree++
		}
	}
	fmt.Fprintf(w, "\n%d of %d comparisons measured, %d agree\n", measured, len(t.Rows), agree)
	if s.Plan.Note != "" {
		fmt.Fprintf(w, "method: %s\n", s.Plan.Note)
	}
	for _, g := range p.Gaps {
		fmt.Fprintf(w, "not reproduced: %s: %s\n", g.What, g.Why)
	}
	return nil
}

// conditions describes the study's conditions the session sets.
func conditions(p *Plan) string {
	var parts []string
	if len(p.Config.CPUs) > 0 {
		cpus := make([]string, len(p.Config.CPUs))
		for i, n := range p.Config.CPUs {
			cpus[i] = strconv.Itoa(n)
		}
		parts = append(parts, "GOMAXPROCS "+strings.Join(cpus, ","))
	}
	if p.Study.Plan.Profile != "" {
		parts = append(parts, "server profile "+p.Study.Plan.Profile)
	}
	parts = append(parts, fmt.Sprintf("warm-up %g", p.Config.Warmup))
	if p.Config.ColdJVM && slices.ContainsFunc(p.Config.Targets, func(name string) bool {
		spec, ok := targets.Lookup(name)
		return ok && spec.JVM
	}) {
		parts = append(parts, "JDBC in a cold JVM (no JIT warm-up; --jit-warmup for one)")
	}
	if len(p.Study.Plan.Nets) > 0 {
		parts = append(parts, "over "+strings.Join(p.Study.Plan.Nets, ","))
	}
	return ", " + strings.Join(parts, ", ")
}

// List writes every study: its ID, how many comparisons it publishes and
// its title.
func List(w io.Writer) error {
	for _, s := range studies.All() {
		if _, err := fmt.Fprintf(w, "%-18s %3d comparisons  %s\n", s.ID, len(s.Comparisons()), s.Title); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, "\nsqlbench reproduce STUDY [--quick] [--scale S] [-o FILE] runs one; --scale 1 is the published size")
	return err
}
