package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/targets"
)

// listCommand is sqlbench list: the catalogue, every target with its
// availability and every workload with its description per database and,
// when there are results to extrapolate from, the estimated time of a
// --scale 1 run.
func listCommand(env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "list [flags]",
		Short: "show every target and workload, and which targets this machine can run",
		Long: `List prints every target (a driver through one API) with whether this machine
can run it and why not, and every workload with its operations per run and
what it does on each database. With results of this machine to extrapolate
from, it estimates each workload's --scale 1 run time.`,
		Example: `  sqlbench list
  sqlbench list --json | jq '.targets[] | select(.available) | .name'
  sqlbench list --markdown > catalogue.md
  sqlbench list --estimate results/sqlbench-20260101-120000.txt`,
		Args: noArgs,
	}
	from := c.Flags().String("estimate", "", "results file to estimate --scale 1 run times from (default: the newest results/sqlbench-*.txt here)")
	asJSON := c.Flags().Bool("json", false, "print the targets and workloads as JSON, with availability and reasons")
	asMarkdown := c.Flags().Bool("markdown", false, "print the catalogue (every target and workload, not this machine's availability) as Markdown tables")
	c.RunE = func(c *cobra.Command, _ []string) error {
		if err := listIdle(c); err != nil {
			return err
		}
		if *asMarkdown {
			return listMarkdown(env.Stdout)
		}
		est, err := findEstimate(*from, env)
		if err != nil {
			return err
		}
		if *asJSON {
			return listJSON(est, env)
		}
		return listText(est, env)
	}
	return c
}

// findEstimate reads the estimate of a --scale 1 run from the results file
// from, or else the newest here; nil when there is none.
func findEstimate(from string, env Env) (*estimate, error) {
	if from == "" {
		from = newestResults(env.Dir)
	} else if !filepath.IsAbs(from) {
		from = filepath.Join(env.Dir, from)
	}
	if from == "" {
		return nil, nil
	}
	return estimateFrom(from)
}

// listText prints the catalogue as tables within the output's width.
func listText(est *estimate, env Env) error {
	width := env.width()
	rows := [][]string{{"TARGET", "DB", "API", "AVAILABLE", "DESCRIPTION"}}
	var why []string
	for _, t := range targets.All() {
		avail := "yes"
		if reason := session.Unavailable(t, env.session()); reason != "" {
			avail = "no (see below)"
			why = append(why, t.Name+": "+reason)
		}
		rows = append(rows, []string{t.Name, string(t.DB), string(t.API), avail, t.Desc})
	}
	if err := fitTable(env.Stdout, width, rows); err != nil {
		return err
	}
	if len(why) > 0 {
		fmt.Fprintln(env.Stdout, "\nunavailable here:")
		for _, w := range why {
			fmt.Fprint(env.Stdout, report.WrapText("  "+w, width, "    "))
		}
	}
	listScriptRefusals(env.Stdout)
	fmt.Fprintln(env.Stdout)
	head := []string{"WORKLOAD", "FAMILY", "OPS/RUN AT SCALE 1"}
	if est != nil {
		head = append(head, "EST. AT SCALE 1")
	}
	rows = [][]string{append(head, "DESCRIPTION")}
	for _, w := range bench.Workloads() {
		first, prev := true, ""
		for _, db := range bench.KnownDBs() {
			if !w.RunsOn(db) {
				continue
			}
			d := w.Describe(bench.DialectOf(db))
			row := make([]string, len(head), len(head)+1)
			if first {
				copy(row, []string{w.ID(), w.Family, report.Thousands(float64(w.Ops)) + " " + w.Unit})
				if est != nil {
					row[3] = est.cell(w.ID())
				}
			}
			if first || d != prev {
				rows = append(rows, append(row, string(db)+": "+d))
			}
			first, prev = false, d
		}
	}
	if err := fitTable(env.Stdout, width, rows); err != nil {
		return err
	}
	if est == nil {
		fmt.Fprint(env.Stdout, "\n"+report.WrapText("No results here to estimate a --scale 1 run from: run `sqlbench run --quick --workloads all` (or pass --estimate FILE).", width, ""))
		return nil
	}
	fmt.Fprint(env.Stdout, "\n"+report.WrapText(fmt.Sprintf("Estimated --scale 1 run of the %d workloads measured in %s, on the targets it has for each: %s "+
		"(%d runs per cell plus %g%% warm-up where a session warms up by default, from each cell's median ns/op there; set-up, such as filling the tables a query reads, is not counted).",
		len(est.byID), est.source, formatEstimate(est.total), estimateCount, 100*estimateWarmup), width, ""))
	return nil
}

// cell is a workload's entry in the estimate column: its time and the
// number of cells it covers, or "?" when the results do not have it.
func (e *estimate) cell(id string) string {
	if e == nil {
		return ""
	}
	d, ok := e.byID[id]
	if !ok {
		return "?"
	}
	return fmt.Sprintf("%s (%d cells)", formatEstimate(d), e.cells[id])
}
