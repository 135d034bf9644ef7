package cli

import (
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/report"
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
	c.RunE = func(*cobra.Command, []string) error {
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

// listText prints the catalogue as tables.
func listText(est *estimate, env Env) error {
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TARGET\tDB\tAPI\tAVAILABLE\tDESCRIPTION")
	var why []string
	for _, t := range targets.All() {
		avail := "yes"
		if reason := session.Unavailable(t, env.session()); reason != "" {
			avail = "no (see below)"
			why = append(why, t.Name+": "+reason)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Name, t.DB, t.API, avail, t.Desc)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(why) > 0 {
		fmt.Fprintln(env.Stdout, "\nunavailable here:")
		for _, w := range why {
			fmt.Fprintln(env.Stdout, "  "+w)
		}
	}
	listScriptRefusals(env.Stdout)
	fmt.Fprintln(env.Stdout)
	tw = tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	estCol, estGap := "", ""
	if est != nil {
		estCol, estGap = "EST. AT SCALE 1\t", "\t"
	}
	fmt.Fprintf(tw, "WORKLOAD\tFAMILY\tOPS/RUN AT SCALE 1\t%sDESCRIPTION\n", estCol)
	for _, w := range bench.Workloads() {
		first, prev := true, ""
		for _, db := range bench.KnownDBs() {
			if !w.RunsOn(db) {
				continue
			}
			d := w.Describe(bench.DialectOf(db))
			switch {
			case first:
				fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s%s: %s\n", w.ID(), w.Family, report.Thousands(float64(w.Ops)), w.Unit, est.cell(w.ID()), db, d)
			case d != prev:
				fmt.Fprintf(tw, "\t\t\t%s%s: %s\n", estGap, db, d)
			}
			first, prev = false, d
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if est == nil {
		fmt.Fprintln(env.Stdout, "\nNo results here to estimate a --scale 1 run from: run `sqlbench run --quick --workloads all` (or pass --estimate FILE).")
		return nil
	}
	fmt.Fprintf(env.Stdout, "\nEstimated --scale 1 run of the %d workloads measured in %s, on the targets it has for each: %s\n"+
		"(%d runs per cell plus %g%% warm-up where a session warms up by default, from each cell's median ns/op there; set-up, such as filling the tables a query reads, is not counted).\n",
		len(est.byID), est.source, formatEstimate(est.total), estimateCount, 100*estimateWarmup)
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
		return "?\t"
	}
	return fmt.Sprintf("%s (%d cells)\t", formatEstimate(d), e.cells[id])
}
