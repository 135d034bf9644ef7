package published

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/sqlbench/sqlbench/internal/report"

	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// footnote is a likely cause shared by the disagreeing rows it explains,
// a hypothesis named for disagreeing rows, or the note that they have no
// known cause.
type footnote struct {
	// N numbers it, from 1.
	N int
	// Kind is footCause, footHypothesis or footNone.
	Kind string
	// Text is the cause; Labels the comparisons it explains; Rows their
	// indices in the table.
	Text   string
	Labels []string
	Rows   []int
}

// The kinds of footnote.
const (
	footCause      = "likely cause"
	footHypothesis = "hypothesis"
	footNone       = "disagrees — no known cause"
)

// unexplained is the footnote of a disagreement the study's data knows no
// cause for: the program has not been run here beside sqlbench for it.
const unexplained = "not explained yet: no run of the published program on this machine has " +
	"given its ratio beside sqlbench's for these; until one does, the difference may be sqlbench's " +
	"(docs/reproduce.md)"

// Heading is how the footnote begins: "[N] likely cause", "[N]
// hypothesis" or, for the disagreements without either, "[N] disagrees —
// no known cause".
func (f footnote) Heading() string {
	return fmt.Sprintf("[%d] %s", f.N, f.Kind)
}

// causes returns the table's footnotes: one per distinct measured cause
// of a disagreeing row, hypothesis or reason it has none, in row order.
func causes(t *Table) []footnote {
	var out []footnote
	for i, row := range t.Rows {
		if row.Verdict != VerdictDisagrees {
			continue
		}
		kind, text := footCause, row.Cause
		switch {
		case text != "":
		case row.Hypothesis != "":
			kind, text = footHypothesis, row.Hypothesis
		case row.Missed != "":
			kind, text = footNone, row.Missed
		default:
			kind, text = footNone, unexplained
		}
		label := row.Test.Name + " " + row.Num.Name + " / " + row.Den.Name
		found := false
		for k := range out {
			if out[k].Text == text && out[k].Kind == kind {
				out[k].Labels, out[k].Rows = append(out[k].Labels, label), append(out[k].Rows, i)
				found = true
			}
		}
		if !found {
			out = append(
				out,
				footnote{N: len(out) + 1, Kind: kind, Text: text, Labels: []string{label}, Rows: []int{i}},
			)
		}
	}
	return out
}

// verdictTexts returns each row's verdict as printed, a disagreement with
// a known cause followed by its footnote's number.
func verdictTexts(t *Table) []string {
	out := make([]string, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = row.VerdictText()
	}
	for _, f := range causes(t) {
		for _, i := range f.Rows {
			out[i] += fmt.Sprintf(" [%d]", f.N)
		}
	}
	return out
}

// sourceAddresses names the public addresses of a study's document and
// program.
func sourceAddresses(s *studies.Study) string {
	out := s.Source.URL
	if s.Source.Program != "" && s.Source.Program != s.Source.URL {
		out += ", program " + s.Source.Program
	}
	return out
}

// Text writes a study's published-beside-measured table as plain
// text within textlayout.Width columns (sqlbench reproduce and sqlbench report
// print it): the comparisons grouped under their test, the likely cause
// of each disagreement where one is known, and how the verdicts are
// reached.
func Text(w io.Writer, t *Table) error {
	verdicts := verdictTexts(t)
	rows := [][]string{{"test / comparison", "published", "measured", "interval", "verdict"}}
	tests := []string{""}
	for i, row := range t.Rows {
		line := []string{"  " + row.Num.Name + " / " + row.Den.Name, report.FormatRatio(row.Published), "—", "—",
			verdicts[i]}
		if row.Measured > 0 {
			line[2] = report.FormatRatio(row.Measured)
			if !(math.IsInf(row.Hi, 0) || row.Hi <= 0 || math.IsNaN(row.Lo)) {
				line[3] = strings.TrimSuffix(report.FormatRatio(row.Lo), "×") + "–" + report.FormatRatio(row.Hi)
			}
		}
		rows = append(rows, line)
		tests = append(tests, row.Test.Name)
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	// Where the widest row would not fit, each verdict goes on a line of
	// its own under its comparison.
	total := 0
	for _, w := range widths {
		total += w + 2
	}
	ownLine := total-2 > textlayout.Width
	var b strings.Builder
	for i, r := range rows {
		if i > 0 && tests[i] != tests[i-1] {
			b.WriteString(tests[i] + "\n")
		}
		verdict := ""
		if ownLine {
			r, verdict = r[:len(r)-1], r[len(r)-1]
		}
		var line strings.Builder
		for j, c := range r {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c))
			if j == 0 || j == len(widths)-1 {
				line.WriteString(c + pad)
			} else {
				line.WriteString(pad + c)
			}
			line.WriteString("  ")
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
		if verdict != "" {
			b.WriteString("      " + verdict + "\n")
		}
	}
	fs := causes(t)
	if len(fs) > 0 {
		b.WriteString("\n")
	}
	for _, f := range fs {
		b.WriteString(
			textlayout.Wrap(
				fmt.Sprintf("%s (%s): %s", f.Heading(), strings.Join(f.Labels, "; "), f.Text),
				textlayout.Width,
				"    ",
			),
		)
	}
	b.WriteString("\n" + textlayout.Wrap(VerdictNoteAt(t.Resolution), textlayout.Width, ""))
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if len(t.Memory) == 0 {
		return nil
	}
	return publishedMemoryGrid(t).WriteText(w)
}
