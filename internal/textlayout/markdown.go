package textlayout

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes t as a Markdown table under a heading of the given
// level ("##", "###"): the best values in bold, each note after its value,
// the table's notes as paragraphs below it.
func (t Table) WriteMarkdown(w io.Writer, level string) {
	fmt.Fprintf(w, "\n%s %s\n\n", level, t.Title)
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		for _, c := range r {
			v := c.Text
			if c.Bold {
				v = "**" + v + "**"
			}
			if c.Note != "" {
				v = strings.TrimSpace(v + " " + c.Note)
			}
			rows[i] = append(rows[i], v)
		}
	}
	MarkdownRows(w, t.Header, rows, t.Left)
	for _, n := range t.Notes {
		fmt.Fprintf(w, "\n%s\n", n)
	}
}

// MarkdownRows writes a Markdown table whose first left columns are
// left-aligned and the others right-aligned; every cell is escaped.
func MarkdownRows(w io.Writer, header []string, rows [][]string, left int) {
	row := func(cells []string) {
		fmt.Fprint(w, "|")
		for _, c := range cells {
			fmt.Fprintf(w, " %s |", EscapeMarkdown(c))
		}
		fmt.Fprintln(w)
	}
	row(header)
	fmt.Fprint(w, "|")
	for i := range header {
		if i < left {
			fmt.Fprint(w, "---|")
		} else {
			fmt.Fprint(w, "--:|")
		}
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		row(r)
	}
}

// EscapeMarkdown makes s safe inside a Markdown table cell.
func EscapeMarkdown(s string) string {
	if !strings.ContainsAny(s, "|\n<") {
		return s
	}
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;").Replace(s)
}
