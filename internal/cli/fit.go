package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/internal/report"
)

// fitTable writes rows (the first the header) as a table of columns two
// spaces apart within width columns: the last column, the descriptions,
// wraps under itself. Where the other columns leave it fewer than 30
// columns, it goes on lines of its own below its row, indented.
func fitTable(w io.Writer, width int, rows [][]string) error {
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
			b.WriteString(report.WrapText("    "+last, width, "    "))
			continue
		}
		b.WriteString(report.WrapText(line.String()+last, width, strings.Repeat(" ", lead)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fitHelp makes the help of root and its commands fit in width columns:
// the flags' descriptions wrap under themselves (pflag's
// FlagUsagesWrapped).
func fitHelp(root *cobra.Command, width int) {
	t := root.UsageTemplate()
	t = strings.ReplaceAll(t, ".FlagUsages", fmt.Sprintf(".FlagUsagesWrapped %d", width))
	root.SetUsageTemplate(t)
}
