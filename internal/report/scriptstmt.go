package report

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// StmtKey is the results file's configuration key that names statement n
// (from 1) of a script workload: "script-stmt-N", its value "FILE:LINE SQL".
func StmtKey(n int) string { return "script-stmt-" + strconv.Itoa(n) }

// stmtUnit reads a script's per-statement latency unit, "stmtN-pP-ns/op":
// the statement's number and the percentile ("p50").
func stmtUnit(u string) (n int, pct string, ok bool) {
	rest, ok := strings.CutPrefix(u, "stmt")
	if !ok {
		return 0, "", false
	}
	num, rest, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, "", false
	}
	pct, ok = strings.CutSuffix(rest, "-ns/op")
	n, err := strconv.Atoi(num)
	return n, pct, ok && err == nil && n > 0 && strings.HasPrefix(pct, "p")
}

func isStmtUnit(u string) bool {
	_, _, ok := stmtUnit(u)
	return ok
}

// stmtLabelWidth bounds a statement's label in the table, so that the
// table fits the terminal's width with its targets.
const stmtLabelWidth = 34

// stmtGrid is the per-statement latency table of a family on one database
// (a script workload's, pgbench -r): for each workload a row per statement,
// named by its number, file and line and the start of its SQL (from the
// results' script-stmt lines), a column per target, each value the median
// over the runs of the statement's p50 and p99 latency. Nil when no cell
// has per-statement latencies.
func stmtGrid(t *Table) *textlayout.Table {
	g := &textlayout.Table{Title: t.Family + " · " + t.DB + " · per-statement latency, p50 / p99 (medians of the runs)",
		Header: append([]string{"workload", "statement"}, t.Cols...), Left: 2, Groups: true}
	for _, row := range t.Rows {
		var nums []int
		labels := map[int]string{}
		for _, col := range t.Cols {
			c := t.Cell(row, col)
			if c == nil {
				continue
			}
			for u := range c.Stats {
				if n, _, ok := stmtUnit(u); ok && !slices.Contains(nums, n) {
					nums = append(nums, n)
				}
			}
			for _, kv := range c.Config {
				if n, ok := strings.CutPrefix(kv.Key, "script-stmt-"); ok {
					if i, err := strconv.Atoi(n); err == nil {
						labels[i] = kv.Value
						if sp := strings.IndexByte(kv.Value, ':'); sp >= 0 {
							labels[i] = path.Base(kv.Value[:sp]) + kv.Value[sp:] // the file's own name
						}
					}
				}
			}
		}
		slices.Sort(nums)
		for i, n := range nums {
			name := row
			if i > 0 {
				name = ""
			}
			text := strconv.Itoa(n) + " " + labels[n]
			if r := []rune(text); len(r) > stmtLabelWidth {
				text = string(r[:stmtLabelWidth-1]) + "…"
			}
			line := []textlayout.Cell{textlayout.Label(name), textlayout.Label(text)}
			for _, col := range t.Cols {
				v := textlayout.Label("-")
				if c := t.Cell(row, col); c != nil {
					p50, ok50 := c.Stats["stmt"+strconv.Itoa(n)+"-p50-ns/op"]
					p99, ok99 := c.Stats["stmt"+strconv.Itoa(n)+"-p99-ns/op"]
					if ok50 && ok99 {
						v = textlayout.Label(FormatDuration(p50.Median) + " / " + FormatDuration(p99.Median))
					}
				}
				line = append(line, v)
			}
			g.Rows = append(g.Rows, line)
		}
	}
	if len(g.Rows) == 0 {
		return nil
	}
	return g
}
