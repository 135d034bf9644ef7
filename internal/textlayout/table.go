package textlayout

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// Table is a table of text, built once and written as text, Markdown or
// (by the report) HTML.
type Table struct {
	Title  string
	Header []string
	Rows   [][]Cell
	// Left is the number of leading columns that are labels (left-aligned).
	Left int
	// Wrap lets the second column's text wrap (the environment's values).
	Wrap bool
	// Groups marks rows whose first cell is not blank as the start of a
	// group of rows (a workload's measures).
	Groups bool
	// LeftLast left-aligns the last column (words, such as a verdict).
	LeftLast bool
	// AlignRight makes WriteColumns align every column right, the last
	// and the labels too (a table of figures), instead of left.
	AlignRight bool
	// Notes are printed under the table: what its columns mean, and why
	// some are not known.
	Notes []string
}

// Cell is one cell of a Table: the value, an optional note shown after
// it (the ±% interval), and whether it is the best in its row.
type Cell struct {
	Text, Note string
	Bold       bool
}

// Label is a cell of text alone.
func Label(s string) Cell { return Cell{Text: s} }

// Labels is an untitled table of text alone, every column a label: the
// header and the rows.
func Labels(header []string, rows [][]string) Table {
	t := Table{Header: header, Left: len(header)}
	for _, r := range rows {
		cells := make([]Cell, len(r))
		for i, s := range r {
			cells[i] = Label(s)
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// texts is the header and the rows' texts, the header first.
func (t Table) texts() [][]string {
	out := [][]string{t.Header}
	for _, r := range t.Rows {
		row := make([]string, len(r))
		for i, c := range r {
			row[i] = c.Text
		}
		out = append(out, row)
	}
	return out
}

// WriteTextWithin writes t as WriteText does when it fits in width
// columns (or width is 0 or less); a wider table is split into tables of
// the same rows and label columns, each with as many of the value columns
// (targets) as fit, titled "(part k of n)", its notes under the last.
func (t Table) WriteTextWithin(w io.Writer, width int) error {
	parts := t.splitColumns(width)
	if len(parts) == 1 {
		return t.WriteText(w)
	}
	for k, cols := range parts {
		sub := Table{Title: fmt.Sprintf("%s (part %d of %d)", t.Title, k+1, len(parts)), Left: t.Left, Groups: t.Groups,
			LeftLast: t.LeftLast && slices.Contains(cols, len(t.Header)-1)}
		pick := func(cells []Cell) []Cell {
			out := slices.Clone(cells[:t.Left])
			for _, c := range cols {
				out = append(out, cells[c])
			}
			return out
		}
		for i := range t.Left {
			sub.Header = append(sub.Header, t.Header[i])
		}
		for _, c := range cols {
			sub.Header = append(sub.Header, t.Header[c])
		}
		for _, row := range t.Rows {
			sub.Rows = append(sub.Rows, pick(row))
		}
		if k == len(parts)-1 {
			sub.Notes = t.Notes
		}
		if err := sub.WriteText(w); err != nil {
			return err
		}
	}
	return nil
}

// splitColumns groups the value columns of t (by index) so that each
// group, with the label columns, renders within width columns; one group
// of all when width is 0 or less or the table fits.
func (t Table) splitColumns(width int) [][]int {
	colWidth := func(i int) int {
		n := utf8.RuneCountInString(t.Header[i])
		for _, row := range t.Rows {
			c := row[i]
			v := c.Text
			if i >= t.Left {
				v = strings.TrimRight(" "+v+" "+c.Note, " ")
			}
			n = max(n, utf8.RuneCountInString(v))
		}
		return n + 2 // the tab writer's padding
	}
	labels := 0
	for i := range t.Left {
		labels += colWidth(i)
	}
	var parts [][]int
	var cur []int
	used := labels
	for i := t.Left; i < len(t.Header); i++ {
		cw := colWidth(i)
		if width > 0 && len(cur) > 0 && used+cw > width {
			parts = append(parts, cur)
			cur, used = nil, labels
		}
		cur = append(cur, i)
		used += cw
	}
	if len(cur) > 0 || len(parts) == 0 {
		parts = append(parts, cur)
	}
	// As many parts as needed, of about as many targets each where that
	// fits too (9 targets as 3+3+3, not 4+4+1).
	n, cols := len(parts), len(t.Header)-t.Left
	if n < 2 {
		return parts
	}
	var even [][]int
	for k := range n {
		var part []int
		used := labels
		for i := t.Left + k*cols/n; i < t.Left+(k+1)*cols/n; i++ {
			part = append(part, i)
			used += colWidth(i)
		}
		if used > width {
			return parts
		}
		even = append(even, part)
	}
	return even
}

// WriteText writes t as a titled text table: label columns aligned
// left, values right, the best marked with '*'; its notes wrap within
// Width.
func (t Table) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "\n%s\n", t.Title)
	widths := make([]int, t.Left)
	for i := range t.Left {
		widths[i] = utf8.RuneCountInString(t.Header[i])
		for _, row := range t.Rows {
			widths[i] = max(widths[i], utf8.RuneCountInString(row[i].Text))
		}
	}
	last := len(t.Header) - 1
	lastWidth := 0
	if t.LeftLast {
		lastWidth = utf8.RuneCountInString(t.Header[last])
		for _, row := range t.Rows {
			lastWidth = max(lastWidth, utf8.RuneCountInString(row[last].Text)+1) // the mark column
		}
	}
	pad := func(s string, i int) string {
		switch {
		case i < t.Left:
			return s + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(s))
		case t.LeftLast && i == last:
			return s + strings.Repeat(" ", max(0, lastWidth-utf8.RuneCountInString(s)))
		}
		return s
	}
	var buf bytes.Buffer // the lines, whose padding after the last column is trimmed
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	for i, h := range t.Header {
		if t.LeftLast && i == last {
			h = " " + h // over the values, which follow a mark column
		}
		fmt.Fprintf(tw, "%s\t", pad(h, i))
	}
	fmt.Fprintln(tw)
	for _, row := range t.Rows {
		for i, c := range row {
			v := c.Text
			if i >= t.Left {
				mark := " "
				if c.Bold {
					mark = "*"
				}
				v = strings.TrimRight(mark+v+" "+c.Note, " ")
			}
			fmt.Fprintf(tw, "%s\t", pad(v, i))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeTrimmed(w, buf.String()); err != nil {
		return err
	}
	for _, n := range t.Notes {
		if _, err := io.WriteString(w, Wrap("  "+n, Width, "  ")); err != nil {
			return err
		}
	}
	return nil
}

// writeTrimmed writes the lines of s without the spaces that end them.
func writeTrimmed(w io.Writer, s string) error {
	for _, line := range strings.SplitAfter(s, "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		body = strings.TrimRight(body, " ")
		if nl {
			body += "\n"
		}
		if _, err := io.WriteString(w, body); err != nil {
			return err
		}
	}
	return nil
}
