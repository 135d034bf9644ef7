package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/pick"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/textlayout"
	"github.com/sqlbench/sqlbench/targets"
)

// listCommand is sqlbench list: the catalogue, every target with its
// availability and every workload with its description per database and,
// when there are results to extrapolate from, the estimated time of a
// --scale 1 run.
func listCommand(env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "list [targets|workloads] [flags]",
		Short: "show every target and workload, and which targets this machine can run",
		Long: `List prints every target (a driver through one API) with whether this machine
can run it and why not, and every workload with its operations per run and
what it does on each database. With results of this machine to extrapolate
from, it estimates each workload's --scale 1 run time. "list targets" or
"list workloads" prints one kind only; --db the targets and workloads of
one database.`,
		Example: `  sqlbench list
  sqlbench list targets --db sqlite
  sqlbench list workloads --db postgres
  sqlbench list --json | jq '.targets[] | select(.available) | .name'
  sqlbench list --markdown > catalogue.md
  sqlbench list --estimate results/sqlbench-20260101-120000.txt`,
		Args:      listArgs,
		ValidArgs: listKinds,
	}
	from := c.Flags().String("estimate", "", "results file to estimate --scale 1 run times from (default: the newest "+
		"results/sqlbench-*.txt here)")
	asJSON := c.Flags().Bool("json", false, "print the targets and workloads as JSON, with availability and reasons")
	asMarkdown := c.Flags().Bool("markdown", false, "print the catalogue (every target and workload, not this "+
		"machine's availability) as Markdown tables")
	db := c.Flags().String("db", "", "only the targets and workloads of this database: "+strings.Join(dbNames(), ", "))
	complete(c, "db", dbNames)
	c.RunE = func(c *cobra.Command, args []string) error {
		if err := listNoops(c); err != nil {
			return err
		}
		f, err := newListFilter(args, *db)
		if err != nil {
			return err
		}
		if *asMarkdown {
			return listMarkdown(env.Stdout, f)
		}
		est, err := findEstimate(*from, env)
		if err != nil {
			return err
		}
		if *asJSON {
			return listJSON(est, env, f)
		}
		return listText(est, env, f)
	}
	return c
}

// listKinds are the kinds of entry list prints, each of which it can print
// alone.
var listKinds = []string{"targets", "workloads"}

// listArgs accepts at most one argument, a kind of listKinds.
func listArgs(c *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usagef("%s: unexpected argument %q (name at most one of %s)",
			c.CommandPath(), args[1], strings.Join(listKinds, ", "))
	}
	return nil
}

// listFilter is what list prints: every kind, or one (kind); every
// database, or one (db).
type listFilter struct {
	kind string
	db   bench.DB
}

// newListFilter reads list's argument, if any, and its --db value.
func newListFilter(args []string, db string) (listFilter, error) {
	var f listFilter
	if len(args) == 1 {
		kind := strings.TrimSuffix(args[0], "s") + "s" // target or targets
		if !slices.Contains(listKinds, kind) {
			return f, usagef("list: unknown kind %q%s", args[0], pick.DidYouMean(args[0], listKinds))
		}
		f.kind = kind
	}
	if db != "" {
		d, err := bench.ParseDB(db)
		if err != nil {
			return f, usagef("list: --db: unknown database %q%s", db, pick.DidYouMean(db, dbNames()))
		}
		f.db = d
	}
	return f, nil
}

// dbNames are the databases (and kinds of target) --db takes.
func dbNames() []string {
	var names []string
	for _, d := range bench.KnownDBs() {
		names = append(names, string(d))
	}
	return names
}

// targets reports whether list prints the targets, workloads whether it
// prints the workloads.
func (f listFilter) targets() bool   { return f.kind == "" || f.kind == "targets" }
func (f listFilter) workloads() bool { return f.kind == "" || f.kind == "workloads" }

// target reports whether list prints target t.
func (f listFilter) target(t targets.Spec) bool { return f.targets() && (f.db == "" || t.DB == f.db) }

// workload reports whether list prints workload w.
func (f listFilter) workload(w bench.Workload) bool {
	return f.workloads() && (f.db == "" || w.RunsOn(f.db))
}

// dbs are the databases whose descriptions of a workload list prints.
func (f listFilter) dbs() []bench.DB {
	if f.db != "" {
		return []bench.DB{f.db}
	}
	return bench.KnownDBs()
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
func listText(est *estimate, env Env, f listFilter) error {
	if f.targets() {
		if err := listTargetsText(env, f); err != nil {
			return err
		}
	}
	if !f.workloads() {
		return nil
	}
	if f.targets() {
		fmt.Fprintln(env.Stdout)
	}
	return listWorkloadsText(est, env, f)
}

// listTargetsText prints list's table of targets, why those unavailable
// here are, and which cannot run scripts.
func listTargetsText(env Env, f listFilter) error {
	width := env.width()
	rows := [][]string{{"TARGET", "DB", "API", "AVAILABLE", "DESCRIPTION"}}
	var why []string
	for _, t := range targets.All() {
		if !f.target(t) {
			continue
		}
		avail := "yes"
		if reason := session.Unavailable(t, env.session()); reason != "" {
			avail = "no (see below)"
			why = append(why, t.Name+": "+reason)
		}
		rows = append(rows, []string{t.Name, string(t.DB), string(t.API), avail, t.Desc})
	}
	if err := textlayout.Labels(rows[0], rows[1:]).WriteWrapped(env.Stdout, width); err != nil {
		return err
	}
	if len(why) > 0 {
		fmt.Fprintln(env.Stdout, "\nunavailable here:")
		for _, w := range why {
			fmt.Fprint(env.Stdout, textlayout.Wrap("  "+w, width, "    "))
		}
	}
	listScriptRefusals(env.Stdout, f)
	return nil
}

// listWorkloadsText prints list's table of workloads and the estimate of a
// --scale 1 run.
func listWorkloadsText(est *estimate, env Env, f listFilter) error {
	width := env.width()
	head := []string{"WORKLOAD", "FAMILY", "OPS/RUN AT SCALE 1"}
	if est != nil {
		head = append(head, "EST. AT SCALE 1")
	}
	rows := [][]string{append(head, "DESCRIPTION")}
	for _, w := range bench.Workloads() {
		if !f.workload(w) {
			continue
		}
		first, prev := true, ""
		for _, db := range f.dbs() {
			if !w.RunsOn(db) {
				continue
			}
			d := w.Describe(bench.DialectOf(db))
			row := make([]string, len(head), len(head)+1)
			if first {
				copy(row, []string{w.ID(), w.Family, textlayout.Thousands(float64(w.Ops)) + " " + w.Unit})
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
	if err := textlayout.Labels(rows[0], rows[1:]).WriteWrapped(env.Stdout, width); err != nil {
		return err
	}
	if est == nil {
		fmt.Fprint(env.Stdout, "\n"+textlayout.Wrap("No results here to estimate a --scale 1 run from: run `sqlbench "+
			"run --quick --workloads all` (or pass --estimate FILE).", width, ""))
		return nil
	}
	fmt.Fprint(env.Stdout, "\n"+textlayout.Wrap(fmt.Sprintf("Estimated --scale 1 run of the %d workloads measured in "+
		"%s, on the targets it has for each: %s "+
		"(%d runs per cell plus %g%% warm-up where a session warms up by default, from each cell's median ns/op "+
		"there; set-up, such as filling the tables a query reads, is not counted).",
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
