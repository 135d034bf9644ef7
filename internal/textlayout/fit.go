package textlayout

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// WriteWrapped writes t's header and rows (their texts) as columns two
// spaces apart within width columns: the last column, the descriptions,
// wraps under itself. Where the other columns leave it fewer than 30
// columns, it goes on lines of its own below its row, indented.
func (t Table) WriteWrapped(w io.Writer, width int) error {
	rows := t.texts()
	cols := len(rows[0])
	widths := make([]int, cols-1)
	for _, r := range rows {
		for i, cell := range r[:cols-1] {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	lead := 0
	for _, n := range widths {
		lead += n + 2
	}
	var b strings.Builder
	for _, r := range rows {
		var line strings.Builder
		for i, cell := range r[:cols-1] {
			fmt.Fprintf(&line, "%-*s  ", widths[i], cell)
		}
		last := r[cols-1]
		if width-lead < 30 {
			if lead := strings.TrimRight(line.String(), " "); lead != "" {
				b.WriteString(lead + "\n")
			}
			b.WriteString(Wrap("    "+last, width, "    "))
			continue
		}
		b.WriteString(Wrap(line.String()+last, width, strings.Repeat(" ", lead)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteStacked writes t's header and rows (their texts) as columns two
// spaces apart, aligned left; where a line of that is wider than width,
// each row's first cell goes on a line of its own (a long one broken
// after a '/') and its other cells on an indented line below it.
func (t Table) WriteStacked(w io.Writer, width int) error {
	rows := t.texts()
	var one bytes.Buffer
	if err := t.WriteColumns(&one); err != nil {
		return err
	}
	wide := false
	for _, line := range strings.Split(one.String(), "\n") {
		wide = wide || utf8.RuneCountInString(strings.TrimRight(line, " ")) > width
	}
	if !wide {
		_, err := w.Write(one.Bytes())
		return err
	}
	widths := make([]int, len(t.Header))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	rest := func(r []string) string {
		line := "   "
		for i, c := range r[1:] {
			if i < len(r)-2 {
				line += fmt.Sprintf(" %-*s ", widths[i+1], c)
			} else {
				line += " " + c
			}
		}
		return strings.TrimRight(line, " ") + "\n"
	}
	var two bytes.Buffer
	two.WriteString(rows[0][0] + "\n" + rest(rows[0]))
	for _, r := range rows[1:] {
		two.WriteString(breakName(r[0], width) + "\n" + rest(r))
	}
	_, err := w.Write(two.Bytes())
	return err
}

// WriteColumns writes t's header and rows (their texts) as columns two
// spaces apart, aligned left (or right: AlignRight), however wide.
func (t Table) WriteColumns(w io.Writer) error {
	flags, end := uint(0), ""
	if t.AlignRight {
		// A cell that ends its line aligns only when a tab ends it too.
		flags, end = tabwriter.AlignRight, "\t"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', flags)
	for _, r := range t.texts() {
		fmt.Fprintln(tw, strings.Join(r, "\t")+end)
	}
	return tw.Flush()
}

// breakName breaks a name wider than width after a '/', the rest on lines
// of their own indented by two.
func breakName(name string, width int) string {
	var b strings.Builder
	for len(name) > width {
		cut := strings.LastIndexByte(name[:width], '/')
		if cut <= 2 {
			break
		}
		b.WriteString(name[:cut+1] + "\n")
		name = "  " + name[cut+1:]
	}
	return b.String() + name
}
