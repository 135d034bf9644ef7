package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/internal/studies"
)

// writeStudiesMarkdown writes every study as a Markdown section: where it
// was published, what it compared, how sqlbench runs it, everything that
// differs here from the study (studies.Gap) and the known causes of ratios
// that differ (studies.Cause). docs/reproduce.md holds it as a generated
// block, so the doc says exactly what the verdicts are built from.
func writeStudiesMarkdown(w io.Writer) error {
	var b strings.Builder
	for _, s := range studies.All() {
		src := s.Source
		fmt.Fprintf(&b, "### `%s`\n\n%s.\n\n", s.ID, s.Title)
		fmt.Fprintf(&b, "- **Published:** [%s](%s), %s, %s", src.Document, src.URL, src.Table, src.Date)
		if src.Program != "" {
			fmt.Fprintf(&b, "; program: <%s>", src.Program)
		}
		fmt.Fprintf(&b, ".\n- **Its machine:** %s.\n", src.Machine)
		fmt.Fprintf(&b, "- **Compared:** %s, on %s (%d comparisons).\n",
			studyPairs(s), studyTests(s), len(s.Comparisons()))
		fmt.Fprintf(&b, "- **Here:** %s.\n", studySetup(s))
		if s.Plan.Note != "" {
			fmt.Fprintf(&b, "- **Method:** %s.\n", strings.TrimSuffix(s.Plan.Note, "."))
		}
		b.WriteString(
			"- **What differs here (each a choice or what this machine lacks, never a workload doing otherwise):**\n")
		fmt.Fprintf(&b, "  - Go toolchain: %s.\n", goDifference(s, ""))
		for _, g := range s.Unavailable {
			if g.Versions {
				fmt.Fprintf(&b, "  - with `--versions pinned`, %s: %s.\n", g.What, strings.TrimSuffix(g.Why, "."))
				continue
			}
			fmt.Fprintf(&b, "  - %s: %s.\n", g.What, strings.TrimSuffix(g.Why, "."))
		}
		for _, bd := range s.Plan.Builds {
			fmt.Fprintf(&b, "- **Built for the study (the default; `--bundled-sqlite` leaves it):** %s: %s.\n",
				bd.Target,
				strings.TrimSuffix(bd.Note, "."))
		}
		if len(s.Period) > 0 {
			b.WriteString("- **As published (the default; `--versions pinned` runs go.mod's instead), each driver " +
				"at the version current when the study was published:**\n")
			for _, p := range s.Period {
				fmt.Fprintf(&b, "  - %s\n", periodMarkdown(p))
			}
		}
		if len(s.Causes) > 0 {
			b.WriteString("- **Known causes where a ratio here differs from the published one** (a measured cause " +
				"applies only where the measured interval reaches the ratios it was measured at; a hypothesis never " +
				"does):\n")
			for _, c := range s.Causes {
				fmt.Fprintf(&b, "  - %s (%s): %s.\n", causeScope(c), causeMeasured(c), strings.TrimSuffix(c.Text, "."))
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// studyPairs names the study's comparisons: "A / B, A / C".
func studyPairs(s *studies.Study) string {
	var out []string
	for _, p := range s.Pairs {
		out = append(out, p[0]+" / "+p[1])
	}
	return strings.Join(out, ", ")
}

// studyTests names the study's tests once each, in order (a test run at
// several GOMAXPROCS values is one name).
func studyTests(s *studies.Study) string {
	var out []string
	seen := map[string]bool{}
	for _, t := range s.Tests {
		if !seen[t.Name] {
			seen[t.Name] = true
			out = append(out, t.Name)
		}
	}
	if len(out) > 12 {
		return strconv.Itoa(len(out)) + " tests (" + strings.Join(out[:6], ", ") + ", …)"
	}
	return strings.Join(out, ", ")
}

// studySetup says how sqlbench runs the study: its targets, conditions and
// default size.
func studySetup(s *studies.Study) string {
	p := s.Plan
	parts := []string{"targets " + strings.Join(s.Targets(), ", ")}
	if len(p.Nets) > 0 {
		parts = append(parts, "over "+strings.Join(p.Nets, ", "))
	}
	if p.Profile != "" {
		parts = append(parts, "server profile "+p.Profile)
	}
	if cpus := s.CPUs(); len(cpus) > 0 {
		var v []string
		for _, c := range cpus {
			v = append(v, strconv.Itoa(c))
		}
		parts = append(parts, "GOMAXPROCS "+strings.Join(v, ", "))
	}
	if p.Warmup > 0 {
		parts = append(parts, fmt.Sprintf("warm-up %g%% of each run", 100*p.Warmup))
	} else {
		parts = append(parts, "no warm-up, as published")
		if slices.ContainsFunc(s.Targets(), lookupJVM) {
			parts = append(parts, "JDBC in a cold JVM, as published (--jit-warmup warms it)")
		}
	}
	if p.JDBCPreparedExec == preparedExecWithSQL {
		parts = append(parts,
			"JDBC PreparedExec as ps.execute(sql), the SQL passed again, as the study's Java program "+
				"(Connector/J runs it as a plain statement; --jdbc-prepared-exec plain runs ps.execute())")
	}
	parts = append(parts, fmt.Sprintf("--scale %g by default (1 = the published sizes), %d runs a cell in %d slices",
		p.Scale, p.Count, p.Slices))
	return strings.Join(parts, "; ")
}

// causeMeasured says what was measured for a cause: "measured here at
// 0.63-0.74×; SIZES; DATE", with the range of each test or pair where it
// has several, or "hypothesis, not measured: WHY".
func causeMeasured(c studies.Cause) string {
	if c.Status == studies.Hypothesis {
		return "hypothesis, not measured: " + c.Unmeasured
	}
	ranges := []string{studies.FormatRange(c.Low, c.High)}
	if len(c.Ranges) > 0 {
		ranges = ranges[:0]
		for _, r := range c.Ranges {
			var of []string
			if r.Test != "" {
				of = append(of, r.Test)
			}
			if r.Pair != [2]string{} {
				of = append(of, r.Pair[0]+" / "+r.Pair[1])
			}
			if len(of) == 0 {
				of = append(of, "the others")
			}
			ranges = append(ranges, strings.Join(of, " ")+" "+studies.FormatRange(r.Low, r.High))
		}
	}
	versions := "go.mod's driver versions"
	if c.Versions == studies.VersionsPeriod {
		versions = "the study's driver versions"
	}
	return fmt.Sprintf("measured here at %s; %s; %s; %s", strings.Join(ranges, ", "), c.Sizes, versions, c.Date)
}

// causeScope names the comparisons a cause applies to.
func causeScope(c studies.Cause) string {
	var pairs []string
	for _, p := range c.Pairs {
		pairs = append(pairs, p[0]+" / "+p[1])
	}
	return strings.Join(pairs, ", ") + " on " + strings.Join(c.Tests, ", ")
}

// periodMarkdown describes a period version: "mysql@VERSION (commit,
// date): how it was chosen; the edits it needs here", or why it does not
// run here.
func periodMarkdown(p studies.Period) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s@%s`", p.Target, p.Version)
	if p.Source != "" {
		fmt.Fprintf(&b, " from `%s`", p.Source)
	}
	var when []string
	if p.Commit != "" {
		when = append(when, "commit "+p.Commit)
	}
	if p.Released != "" {
		when = append(when, p.Released)
	}
	if len(when) > 0 {
		b.WriteString(" (" + strings.Join(when, ", ") + ")")
	}
	if len(p.With) > 0 {
		fmt.Fprintf(&b, ", built with `%s`", strings.Join(p.With, "`, `"))
	}
	if p.Note != "" {
		b.WriteString(": " + strings.TrimSuffix(p.Note, "."))
	}
	for _, e := range p.Edits {
		if e.Shim != "" {
			fmt.Fprintf(&b, "; `%s` added: %s", e.File, strings.TrimSuffix(e.Why, "."))
		} else {
			fmt.Fprintf(&b, "; `%s:%d` edited: %s", e.File, e.Line, strings.TrimSuffix(e.Why, "."))
		}
	}
	if p.Fallback != "" {
		b.WriteString("; **does not run here:** " + strings.TrimSuffix(p.Fallback, "."))
	}
	return b.String() + "."
}
