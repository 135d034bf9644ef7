package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sqlbench/sqlbench/internal/orchestrate"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/report"
)

// dryRun prints what a session of cfg would run — its cells, its passes and
// its estimated time — without building, starting or writing anything.
func dryRun(cfg session.Config, env Env) error {
	p, err := session.NewPlan(&cfg, env.session())
	if err != nil {
		return err
	}
	steps, err := p.Preview(&cfg)
	if err != nil {
		return err
	}
	est, estErr := findEstimate("", env)
	var cells []orchestrate.Step
	seen := map[string]bool{}
	passes := 0
	for _, st := range steps {
		passes = max(passes, st.Pass+1)
		if !seen[st.Cell.Name()] {
			seen[st.Cell.Name()] = true
			cells = append(cells, st)
		}
	}
	w := env.Stdout
	fmt.Fprintln(w, "dry run: nothing is built, started or written")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CELL\tOPS/RUN\tSLICES/RUN\tEST. TIME")
	var total time.Duration
	unknown := 0
	for _, st := range cells {
		wl := st.Cell.Workload
		d, ok := cellTime(est, st.Cell, &cfg)
		col := "?"
		if ok {
			col, total = formatEstimate(d), total+d
		} else {
			unknown++
		}
		fmt.Fprintf(tw, "%s\t%s %s\t%d\t%s\n", st.Cell.Name(), report.Thousands(float64(wl.OpsAt(cfg.ScaleOf(wl)))), wl.Unit, st.Slices, col)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, name := range p.SkippedNames() {
		fmt.Fprintf(w, "skipped %s: %s\n", name, p.Skipped[name])
	}
	if len(p.Later) > 0 {
		fmt.Fprintf(w, "not planned at --scale %g (too big for a smaller run; use --scale 1): %s\n", cfg.Scale, strings.Join(p.Later, ", "))
	}
	cold := 0 // cells of a workload whose published program had no warm-up
	for _, st := range cells {
		if cfg.WarmupOf(st.Cell.Workload) == 0 && cfg.Warmup > 0 {
			cold++
		}
	}
	warm := fmt.Sprintf("+%g%% warm-up each", 100*cfg.Warmup)
	if cold > 0 {
		warm += fmt.Sprintf(", none for %d of them, as their published programs", cold)
	}
	fmt.Fprintf(w, "\n%d cells x %d runs (%s), each run in up to %d slices: %d passes, %d steps\n",
		len(cells), cfg.Count, warm, cfg.Slices, passes, len(steps))
	switch {
	case est == nil:
		why := "no results here to estimate from: run `sqlbench run --quick --workloads all` once"
		if estErr != nil {
			why = "no estimate: " + oneLine(estErr.Error())
		}
		fmt.Fprintln(w, why)
	default:
		fmt.Fprintf(w, "estimated time: %s timed, from each cell's median ns/op in %s", formatEstimate(total), est.source)
		if unknown > 0 {
			fmt.Fprintf(w, " (%d of the %d cells are not there: ?)", unknown, len(cells))
		}
		fmt.Fprintln(w, "; runner builds, server starts and set-up (filling the tables a query reads) come on top")
	}
	return nil
}

// cellTime estimates the timed part of cell's runs in a session of cfg:
// its median ns/op in est, times its operations per run, times the runs
// and their warm-up (none where the session runs the cell cold). False when est does not have the cell.
func cellTime(est *estimate, cell orchestrate.Cell, cfg *session.Config) (time.Duration, bool) {
	if est == nil {
		return 0, false
	}
	perOp, ok := est.perOp[cell.Name()]
	if !ok {
		return 0, false
	}
	w := cell.Workload
	scale := cfg.ScaleOf(w)
	if w.ScaledData {
		perOp *= scale
	}
	runs := float64(cfg.Count) * (1 + cfg.WarmupOf(w))
	return time.Duration(perOp * float64(w.OpsAt(scale)) * runs), true
}
