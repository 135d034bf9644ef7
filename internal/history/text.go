package history

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/perf/benchunit"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// Segment is a run of a series' points between change points.
type Segment struct {
	// From and To are the indexes of its first and last point.
	From, To int
	// Median is the median of its points' values.
	Median float64
}

// Segments returns the series cut at its change points.
func (sr Series) Segments() []Segment {
	cuts := []int{0}
	for _, c := range sr.Changes {
		cuts = append(cuts, c.Index)
	}
	cuts = append(cuts, len(sr.Points))
	var out []Segment
	for i := 0; i+1 < len(cuts); i++ {
		vals := make([]float64, 0, cuts[i+1]-cuts[i])
		for _, p := range sr.Points[cuts[i]:cuts[i+1]] {
			vals = append(vals, p.Value)
		}
		out = append(out, Segment{From: cuts[i], To: cuts[i+1] - 1, Median: median(vals)})
	}
	return out
}

// WriteText writes each series as a trend: the cell, its unit and
// sessions, its machine and settings, then its segments with the change
// between them; with points, every session's value.
func WriteText(w io.Writer, series []Series, points bool) error {
	var b strings.Builder
	for i, sr := range series {
		if i > 0 {
			b.WriteString("\n")
		}
		if len(sr.Points) == 0 {
			continue
		}
		vals := make([]float64, len(sr.Points))
		unit := sr.Unit
		for j, p := range sr.Points {
			vals[j], unit = benchunit.Tidy(p.Value, sr.Unit)
		}
		sc := benchunit.CommonScale(vals, benchunit.ClassOf(unit))
		first, last := sr.Points[0], sr.Points[len(sr.Points)-1]
		fmt.Fprintf(&b, "%s  %s  %s, %s to %s\n", sr.Name, unit, plural(len(sr.Points), "session"),
			first.Began.Format("2006-01-02"), last.Began.Format("2006-01-02"))
		fmt.Fprintf(&b, "  machine: %s\n  settings %s: %s\n", machineSummary(sr.Machine), sr.SettingsID,
			settingsSummary(sr.Settings))
		segs := sr.Segments()
		for j, sg := range segs {
			if j > 0 {
				c, prev := sr.Changes[j-1], segs[j-1]
				p := sr.Points[c.Index]
				fmt.Fprintf(&b, "  change at %s (%s): %+.1f%%%s, p = %.3f%s\n", p.Session, p.Began.Format("2006-01-02"),
					(sg.Median/prev.Median-1)*100, direction(sr.Unit, sg.Median-prev.Median), c.P,
					targetChange(sr.Points[c.Index-1].Target, p.Target))
			}
			m, _ := benchunit.Tidy(sg.Median, sr.Unit)
			fmt.Fprintf(&b, "  %s to %s (%s): median %s\n", sr.Points[sg.From].Session,
				sr.Points[sg.To].Session, plural(sg.To-sg.From+1, "session"), sc.Format(m))
		}
		if len(sr.Changes) == 0 {
			b.WriteString("  no change point\n")
		}
		if points {
			for j, p := range sr.Points {
				fmt.Fprintf(&b, "    %s  %-8s  %8s  %s  %s  %s\n", p.Began.Format("2006-01-02 15:04"), p.Session,
					sc.Format(vals[j]), plural(p.Runs, "run"), versionOf(p.Target), p.Env)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// machineSummary is a machine's lines in a phrase: "linux/amd64, AMD
// EPYC, 2 cores, 23.5 GiB, Debian GNU/Linux 12 (bookworm)".
func machineSummary(lines string) string {
	m := map[string]string{}
	for _, l := range strings.Split(lines, "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok {
			m[k] = v
		}
	}
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s)
		}
	}
	add(strings.Trim(m["goos"]+"/"+m["goarch"], "/"))
	add(m["cpu"])
	if m["cores"] != "" {
		add(m["cores"] + " cores")
	}
	add(m["memory"])
	add(m["os"])
	if len(out) == 0 {
		return "not recorded (a file without sqlbench's header)"
	}
	return strings.Join(out, ", ")
}

// plural is n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// settingsSummary names the run's shape (count, slices, scale, warm-up)
// and how many other settings lines the series shares.
func settingsSummary(lines string) string {
	var shown []string
	others := 0
	for _, l := range strings.Split(lines, "\n") {
		k, v, ok := strings.Cut(l, ": ")
		switch {
		case !ok:
		case slices.Contains([]string{benchfile.KeyCount, benchfile.KeySlices, benchfile.KeyScale, benchfile.KeyWarmup},
			k):
			shown = append(shown, k+" "+v)
		default:
			others++
		}
	}
	if others > 0 {
		shown = append(shown, fmt.Sprintf("and %d more", others))
	}
	if len(shown) == 0 {
		return "none recorded"
	}
	return strings.Join(shown, ", ")
}

// direction says whether a change of unit by delta is better or worse.
func direction(unit string, delta float64) string {
	u, ok := benchfile.LookupUnit(unit)
	switch {
	case !ok || u.Setting || delta == 0:
		return ""
	case (u.Better == "lower") == (delta > 0):
		return " (worse)"
	}
	return " (better)"
}

// versionOf is the version in a target's module line(s)
// ("mattn-module: github.com/mattn/go-sqlite3 v1.14.52" gives "v1.14.52").
func versionOf(target string) string {
	for _, l := range strings.Split(target, "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok && strings.HasSuffix(k, "-module") {
			if _, ver, ok := strings.Cut(v, " "); ok {
				return ver
			}
			return v
		}
	}
	return ""
}

// targetChange notes a change of the target's version at a change point.
func targetChange(before, after string) string {
	if b, a := versionOf(before), versionOf(after); b != a {
		return fmt.Sprintf("; the target went from %s to %s", b, a)
	}
	return ""
}
