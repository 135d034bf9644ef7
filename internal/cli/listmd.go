package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/textlayout"
	"github.com/sqlbench/sqlbench/targets"
)

// listMarkdown prints the catalogue as Markdown tables, the targets and
// then the workloads, for documentation: what sqlbench knows, not what this
// machine can run (sqlbench list says that).
func listMarkdown(w io.Writer, f listFilter) error {
	if f.targets() {
		fmt.Fprintln(w, "| target | db | api | driver module | what it is |")
		fmt.Fprintln(w, "|---|---|---|---|---|")
	}
	for _, t := range targets.All() {
		if !f.target(t) {
			continue
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s |\n", t.Name, t.DB, t.API, t.Module, cellText(t.Desc))
	}
	if !f.workloads() {
		return nil
	}
	if f.targets() {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "| workload | family | ops/run at scale 1 | what it does |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, wl := range bench.Workloads() {
		if !f.workload(wl) {
			continue
		}
		fmt.Fprintf(w, "| `%s` | %s | %s %s | %s |\n", wl.ID(), wl.Family, textlayout.Thousands(float64(wl.Ops)),
			wl.Unit, cellText(describeAll(wl)))
	}
	return nil
}

// describeAll is what w does on each database it runs on: one description
// when they are alike, else one per database.
func describeAll(w bench.Workload) string {
	var parts []string
	prev, same := "", true
	for _, db := range bench.KnownDBs() {
		if !w.RunsOn(db) {
			continue
		}
		d := w.Describe(bench.DialectOf(db))
		if prev != "" && d != prev {
			same = false
		}
		prev = d
		parts = append(parts, fmt.Sprintf("**%s**: %s", db, d))
	}
	if same {
		return prev
	}
	return strings.Join(parts, "<br>")
}

// cellText makes s safe in a Markdown table cell.
func cellText(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
