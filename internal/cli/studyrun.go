package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench"
	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/published"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// errNothingRuns is returned when no comparison of the study can run here
// (the reasons are the plan's gaps).
var errNothingRuns = errors.New("nothing of the study can run here (see the reasons above)")

// runStudy reproduces the study p plans: one session (session.Run, which starts
// the servers, builds the runners and writes the results file and its
// reports, the published table among them). The Outcome is nil when
// nothing of the study can run here.
func runStudy(ctx context.Context, p *studyPlan, env session.Host) (*session.Outcome, error) {
	if !p.Runnable() {
		return nil, errNothingRuns
	}
	if err := prepareBuilds(ctx, p, env.Log); err != nil {
		return nil, err
	}
	for _, t := range p.Config.Targets {
		if lookupJVM(t) && len(p.Config.CPUs) > 0 {
			fmt.Fprintf(env.Log,
				"%s: GOMAXPROCS does not apply to the JDBC runner; its studyCells run once, without a -N suffix\n", t)
		}
	}
	return session.Run(ctx, &p.Config, env)
}

// studyTable returns the study's published-beside-measured table from what the
// session measured (nil: nothing).
func studyTable(p *studyPlan, out *session.Outcome) *published.Table {
	if out == nil || out.Report == nil {
		r := report.New(nil, nil, session.WorkloadInfo)
		r.StudyResolution = p.Config.StudyResolution
		return published.For(r, p.Study)
	}
	return published.For(out.Report, p.Study) // the session's report, at p.Config.StudyResolution

}

// recordedGo returns the Go toolchain the session's results record (their
// go line: the toolchain that built the runners), "" when none does.
func recordedGo(out *session.Outcome) string {
	if out == nil {
		return ""
	}
	return recordedFact(out.Done, "go")
}

// moduleGo returns the Go version sqlbench's go.mod asks for at least
// ("1.26.0"), read from the module file embedded with the runner sources;
// "?" if it has none.
func moduleGo() string {
	b, err := fs.ReadFile(sqlbench.RunnerSource(), "go.mod")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

// goDifference names the Go toolchain the study's programs were built with
// beside the one here: here, the results' go line (the toolchain that
// built the runners), else this machine's, not yet recorded.
func goDifference(s *studies.Study, here string) string {
	if here == "" {
		here = "this machine's toolchain, at least the go " + moduleGo() +
			" go.mod asks for (each results file's go line names it)"
	}
	if s.Source.Go == "not stated" {
		return "not stated by the study; here " + here
	}
	return fmt.Sprintf("the study's %s; here %s", s.Source.Go, here)
}

// printStudy writes the study's heading and sources, the Go toolchain it
// was built with beside goHere (recordedGo), its published-beside-measured
// table and what of it did not run here, and why, within textlayout.Width
// columns.
func printStudy(w io.Writer, p *studyPlan, t *published.Table, goHere string) error {
	s := p.Study
	var b strings.Builder
	line := func(text, indent string) { b.WriteString(textlayout.Wrap(text, textlayout.Width, indent)) }
	b.WriteString("\n")
	line(s.Title, "")
	line(fmt.Sprintf("published: %s, %s; %s", s.Source.Document, s.Source.Table, s.Source.Date), "  ")
	line("  "+s.Source.URL, "    ")
	if s.Source.Program != "" && s.Source.Program != s.Source.URL {
		line("  program: "+s.Source.Program, "    ")
	}
	line("  machine: "+s.Source.Machine, "    ")
	line("  Go: "+goDifference(s, goHere), "    ")
	line(fmt.Sprintf("measured here: %s, scale %g, %d runs per cell%s", strings.Join(p.Config.Command, " "),
		p.Config.Scale, p.Config.Count, studyConditions(p)), "  ")
	line("ratios: the first side's speed over the second's (above 1: the first is faster); measured = the median of "+
		"the per-run ratios, with its confidence interval", "  ")
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if err := published.Text(w, t); err != nil {
		return err
	}
	b.Reset()
	b.WriteString("\n" + tally(t) + "\n")
	if s.Plan.Note != "" {
		line("method: "+s.Plan.Note, "  ")
	}
	for _, t := range p.Builds {
		line(buildLine(t), "  ")
	}
	for _, g := range p.Gaps {
		line(fmt.Sprintf("not reproduced: %s: %s", g.What, g.Why), "  ")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// buildLine is the what-differs line of a build: "as published: ..." for
// a period version, "built for the study: ..." for one of the study's
// builds.
func buildLine(t periodTarget) string {
	if t.AsPublished {
		return "as published: " + t.describe()
	}
	return "built for the study: " + t.describe()
}

// tally counts a table's verdicts: "13 of 26 comparisons measured: 9
// agree, 2 disagree (1 with no known cause), 3 undecided".
func tally(t *published.Table) string {
	n := map[string]int{}
	unexplained := 0
	for _, row := range t.Rows {
		n[row.Verdict]++
		if row.Verdict == published.VerdictDisagrees && row.Cause == "" {
			unexplained++
		}
	}
	verb := func(k int, one, many string) string {
		if k == 1 {
			return one
		}
		return many
	}
	measured := len(t.Rows) - n[published.VerdictNotMeasured]
	disagree := fmt.Sprintf("%d %s", n[published.VerdictDisagrees],
		verb(n[published.VerdictDisagrees], "disagrees", "disagree"))
	if unexplained > 0 {
		disagree += fmt.Sprintf(" (%d with no known cause)", unexplained)
	}
	return fmt.Sprintf("%d of %d comparisons measured: %d %s, %s, %d undecided", measured, len(t.Rows),
		n[published.VerdictAgrees], verb(n[published.VerdictAgrees], "agrees", "agree"), disagree,
		n[published.VerdictInconclusive])
}

// studyConditions describes the conditions the session sets for the study.
func studyConditions(p *studyPlan) string {
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
	if p.Config.ColdJVM && slices.ContainsFunc(p.Config.Targets, lookupJVM) {
		parts = append(parts, "JDBC in a cold JVM (no JIT warm-up; --jit-warmup for one)")
	}
	if p.Config.JDBCPreparedExecSQL && slices.ContainsFunc(p.Config.Targets, lookupJVM) {
		parts = append(parts, "JDBC PreparedExec as ps.execute(sql), as the study's Java program "+
			"(--jdbc-prepared-exec plain: ps.execute())")
	}
	if len(p.Study.Plan.Nets) > 0 {
		parts = append(parts, "over "+strings.Join(p.Study.Plan.Nets, ","))
	}
	if p.Config.IdleLatency == session.IdleLow { // the regime the session ran in (auto resolved by then)
		parts = append(parts, "CPUs held out of deep idle (--idle-latency default: the kernel's regime)")
	}
	if p.Config.SQLite.Sync == bench.SQLiteSyncDriver {
		parts = append(parts, "each SQLite driver at its own synchronous level")
	}
	return ", " + strings.Join(parts, ", ")
}

// listStudies writes every study: its ID, how many comparisons it publishes and
// its title.
func listStudies(w io.Writer) error {
	width := 0
	for _, s := range studies.All() {
		width = max(width, len(s.ID))
	}
	for _, s := range studies.All() {
		line := fmt.Sprintf("%-*s %3d comparisons  %s", width, s.ID, len(s.Comparisons()), s.Title)
		if _, err := io.WriteString(w,
			textlayout.Wrap(line, textlayout.Width, strings.Repeat(" ", width+18))); err != nil {
			return err
		}
	}
	_, err := fmt.Fprint(w, "\n"+textlayout.Wrap("sqlbench reproduce STUDY [--quick] [--scale S] [-o FILE] runs one, "+
		"all runs every study, --dry-run shows what would run; --scale 1 is the published size", textlayout.Width,
		"  "))
	return err
}
