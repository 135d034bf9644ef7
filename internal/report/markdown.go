package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// Markdown writes the report as Markdown: one table per workload family and
// database (rows = workloads, columns = driver/api, each value the median
// operations per second with its confidence interval as ±%, the best in
// each row in bold where its interval clears the others'), the derived views (database/sql overhead, distance to
// the floor, scaling), and the environment the results were measured in.
func Markdown(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# sqlbench results\n\n")
	writeSourceLine(bw, r)
	fmt.Fprintf(
		bw,
		"Values are operations per second, the median of %s; ± is the %s confidence interval of the median as a "+
			"share of it; **bold** is the best in its row where its interval clears every other target's; a row "+
			"without bold is a tie at this confidence. %s "+measuresText+"\n",
		r.RunsLabel(),
		r.ConfLabel(),
		ratioText(r.Baseline, r.resolution()),
	)
	if note := r.BaselineNote(); note != "" {
		fmt.Fprintf(bw, "\n%s.\n", textlayout.EscapeMarkdown(note))
	}
	for _, p := range r.Parts {
		bw.WriteString(p.Markdown)
	}
	for _, t := range r.Tables() {
		for i, g := range familyGrids(t, r.Baseline, r.resolution()) {
			g.WriteMarkdown(bw, map[bool]string{true: "##", false: "###"}[i == 0])
		}
	}
	if pairs := r.Overhead(); len(pairs) > 0 {
		fmt.Fprintf(bw, "\n## database/sql overhead\n\n%s\n", overheadText)
		for _, g := range overheadGrids(pairs) {
			g.WriteMarkdown(bw, "###")
		}
	}
	fmt.Fprintf(bw, "\n## Distance to the floor\n\n")
	if ds := r.Floor(); len(ds) > 0 {
		fmt.Fprintf(bw, "%s Floors: %s.\n", floorText, floorNote(ds))
		for _, g := range floorGrids(ds) {
			g.WriteMarkdown(bw, "###")
		}
	} else {
		fmt.Fprintln(bw, noFloorText)
	}
	if ss := Scalings(r.Sweeps()); len(ss) > 0 {
		fmt.Fprintf(bw, "\n## Scaling\n\n%s\n", scalingText)
		for _, g := range scalingGrids(ss) {
			g.WriteMarkdown(bw, "###")
		}
	}
	if len(r.Failed) > 0 {
		fmt.Fprintf(bw, "\n## Failed cells\n\n")
		for _, f := range r.Failed {
			fmt.Fprintf(bw, "- `%s`: %s\n", f.Name, textlayout.EscapeMarkdown(f.Reason))
		}
	}
	writeEnvMarkdown(bw, r.Env)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

func writeSourceLine(w io.Writer, r *Report) {
	if len(r.Sources) > 0 {
		fmt.Fprintf(w, "From %s: %d results in %d cells.\n", strings.Join(r.Sources, ", "), r.Results, len(r.Cells))
	} else {
		fmt.Fprintf(w, "%d results in %d cells.\n", r.Results, len(r.Cells))
	}
	if r.Partial != "" {
		fmt.Fprintf(w, "\nPartial: %s\n", r.Partial)
	}
}

func writeEnvMarkdown(w io.Writer, groups []EnvGroup) {
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Environment\n")
	for _, g := range envGrids(groups) {
		g.WriteMarkdown(w, "###")
	}
}

// FormatRatio formats a ratio as "1.23×".
func FormatRatio(v float64) string {
	return strconv.FormatFloat(v, 'f', 2, 64) + "×"
}
