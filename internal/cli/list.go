package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/report"
	"github.com/sqlbench/sqlbench/targets"
	_ "github.com/sqlbench/sqlbench/workloads" // registers the workload catalogue
)

// listCmd prints the catalogue: every target with its availability, and
// every workload with its description per database.
func listCmd(args []string, env Env) error {
	fs := newFlags("list")
	if err := parseFlags(fs, args, env); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TARGET\tDB\tAPI\tAVAILABLE\tDESCRIPTION")
	var why []string
	for _, t := range targets.All() {
		avail := "yes"
		if reason := unavailable(t, env); reason != "" {
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
	fmt.Fprintln(env.Stdout)
	tw = tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKLOAD\tFAMILY\tOPS/RUN AT SCALE 1\tDESCRIPTION")
	for _, w := range bench.Workloads() {
		first, prev := true, ""
		for _, db := range bench.KnownDBs() {
			if !w.RunsOn(db) {
				continue
			}
			d := w.Describe(bench.DialectOf(db))
			switch {
			case first:
				fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s: %s\n", w.ID(), w.Family, report.Thousands(float64(w.Ops)), w.Unit, db, d)
			case d != prev:
				fmt.Fprintf(tw, "\t\t\t%s: %s\n", db, d)
			}
			first, prev = false, d
		}
	}
	return tw.Flush()
}
