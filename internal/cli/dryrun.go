package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// dryRun prints what a session of cfg would run — its cells, its passes and
// its estimated time — without building, starting or writing anything.
func dryRun(cfg *session.Config, env Env) error {
	d, budgeted := cfg.Design()
	if budgeted { // the plan and estimate of the first stage, then the design's
		first := *cfg
		first.Count = d.Sizes[0]
		cfg = &first
	}
	total, _, err := preview(cfg, env)
	if budgeted && err == nil {
		fmt.Fprint(env.Stdout, textlayout.Wrap(d.String(), textlayout.Width, "  "))
		fmt.Fprint(env.Stdout, textlayout.Wrap(d.Estimate(total), textlayout.Width, "  "))
	}
	return err
}

// preview prints dryRun's plan of cfg and returns its estimated timed
// total and how many cells that estimate lacks (all of them when there is
// nothing to estimate from).
func preview(cfg *session.Config, env Env) (total time.Duration, unknown int, err error) {
	p, err := session.NewPlan(cfg, env.session())
	if err != nil {
		return 0, 0, err
	}
	steps, err := p.Preview(cfg)
	if err != nil {
		return 0, 0, err
	}
	var cells []session.Step
	var cellsOnly []session.Cell
	seen := map[string]bool{}
	passes := 0
	for _, st := range steps {
		passes = max(passes, st.Pass+1)
		if !seen[st.Cell.Name()] {
			seen[st.Cell.Name()] = true
			cells = append(cells, st)
			cellsOnly = append(cellsOnly, st.Cell)
		}
	}
	instructions := cfg.Measure == session.MeasureInstructions
	est := estimateFor(env.Dir, cellsOnly, instructions)
	var estErr error
	switch {
	case est == nil && instructions:
		estErr = errors.New("no results of a --measure instructions session here to estimate from (under Valgrind " +
			"a run takes 30-340 times as long: a wall-time session's are no guide); run one of these cells with " +
			"--quick --measure instructions once")
	case est == nil && newestResults(env.Dir) != "":
		_, estErr = estimateFrom(newestResults(env.Dir)) // why the newest file gives none
	}
	w := env.Stdout
	fmt.Fprintln(w, "dry run: nothing is built, started or written")
	fmt.Fprintln(w)
	var rows [][]string
	var replays time.Duration // the part of total that replays earlier tests, untimed
	for _, st := range cells {
		wl := st.Cell.Workload
		d, ok := cellTime(est, st.Cell, cfg)
		col := "?"
		if ok {
			col, total = formatEstimate(d), total+d
			if r, ok := replayTime(est, st.Cell, cfg); ok {
				replays += time.Duration(cfg.Count) * r
			}
		} else {
			unknown++
		}
		ops := textlayout.Thousands(float64(wl.OpsAt(cfg.ScaleOf(wl)))) + " " + wl.Unit
		if wl.Timed && cfg.Script != nil {
			ops = cfg.Script.Time.String() + " of " + wl.Unit // a script run for a time (--time)
		}
		rows = append(rows, []string{st.Cell.Label(), ops, strconv.Itoa(st.Slices), col})
	}
	// One line a cell; where that is wider than textlayout.Width, each
	// name on a line of its own and its figures indented below it.
	table := textlayout.Labels([]string{"CELL", "OPS/RUN", "SLICES/RUN", "EST. TIME"}, rows)
	if err := table.WriteStacked(w, textlayout.Width); err != nil {
		return 0, 0, err
	}
	for _, name := range p.SkippedNames() {
		fmt.Fprint(w, textlayout.Wrap(fmt.Sprintf("skipped %s: %s", name, p.Skipped[name]), textlayout.Width, "  "))
	}
	if len(p.Later) > 0 {
		fmt.Fprint(w, textlayout.Wrap(fmt.Sprintf("not planned at --scale %g (too big for a smaller run; use --scale "+
			"1): %s", cfg.Scale, strings.Join(p.Later, ", ")), textlayout.Width, "  "))
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
	fmt.Fprint(w, "\n"+
		textlayout.Wrap(fmt.Sprintf("%d cells x %d runs (%s), each run in up to %d slices: %d passes, %d steps",
			len(cells), cfg.Count, warm, cfg.Slices, passes, len(steps)), textlayout.Width, "  "))
	builds := runnerBuilds(cfg, p, env) // the one-time builds: counted only where they would happen
	switch {
	case est == nil && unknown == 0 && len(cells) > 0: // every cell a script run for a time (--time)
		fmt.Fprint(w, textlayout.Wrap(fmt.Sprintf("estimated time: %s timed: %d cells x %d runs of --time %s; "+
			"runner builds, server starts and each cell's set-up come on top", formatEstimate(total), len(cells),
			cfg.Count,
			cfg.Script.Time), textlayout.Width, "  "))
	case est == nil:
		why := "no results here to estimate from: run `sqlbench run --quick --workloads all` once"
		if estErr != nil {
			why = "no estimate: " + oneLine(estErr.Error())
		}
		fmt.Fprint(w, textlayout.Wrap(why, textlayout.Width, "  "))
		if c := builds.clause(); c != "" {
			fmt.Fprint(w, textlayout.Wrap("runner builds:"+strings.TrimPrefix(strings.TrimPrefix(c, ";"), " +"),
				textlayout.Width, "  "))
		}
	case !est.overhead:
		timed := total
		total += builds.counted()
		text := fmt.Sprintf("estimated time: %s timed%s, from each cell's median ns/op in %s", formatEstimate(timed),
			replayClause(replays), est.source)
		if unknown > 0 {
			text += fmt.Sprintf(" (%d of the %d cells are not there: ?)", unknown, len(cells))
		}
		text += builds.clause()
		text += "; server starts and set-up (filling the tables a query reads) come on top (the file has no began " +
			"and finished lines to tell them from)"
		if builds.Known {
			text = fmt.Sprintf("estimated time: %s: ", formatEstimate(total)) +
				strings.TrimPrefix(text, "estimated time: ")
		}
		fmt.Fprint(w, textlayout.Wrap(text, textlayout.Width, "  "))
	default:
		overhead := time.Duration(len(steps)) * est.perStep
		timed := total
		total += overhead + est.setUp + builds.counted()
		there := "there"
		if est.sessions > 1 {
			there = fmt.Sprintf("the median of %d sessions of these cells", est.sessions)
		}
		text := fmt.Sprintf("estimated time: %s: %s timed%s, from each cell's median ns/op in %s, + %s for the %d "+
			"steps (%s each beyond their operations, %s: requests, cell set-ups, probes) + %s start-up (servers, "+
			"runners)", formatEstimate(total), formatEstimate(timed), replayClause(replays), est.source,
			formatEstimate(overhead), len(steps), est.perStep.Round(time.Millisecond), there,
			formatEstimate(est.setUp))
		text += builds.clause()
		if unknown > 0 {
			text += fmt.Sprintf(" (%d of the %d cells are not there: ?, not counted)", unknown, len(cells))
		}
		fmt.Fprint(w, textlayout.Wrap(text, textlayout.Width, "  "))
	}
	return total, unknown, nil
}

// perOpOf returns cell's ns/op in the estimate's file (as at scale 1 for a
// workload whose tables grow with the scale); a cell with another
// GOMAXPROCS than the file's takes the file's cell without one.
func (est *estimate) perOpOf(cell session.Cell) (float64, bool) {
	perOp, ok := est.perOp[cell.Name()]
	if !ok && cell.CPU > 0 {
		bare := cell
		bare.CPU = 0
		perOp, ok = est.perOp[bare.Name()]
	}
	return perOp, ok
}

// cellTime estimates the timed part of cell's runs in a session of cfg:
// its median ns/op in est, times its operations per run, times the runs
// and their warm-up (none where the session runs the cell cold). False when est does not have the cell.
func cellTime(est *estimate, cell session.Cell, cfg *session.Config) (time.Duration, bool) {
	if cell.Workload.Timed && cfg.Script != nil { // a script run for a time: --count runs of --time
		return time.Duration(cfg.Count) * cfg.Script.Time, true
	}
	if est == nil {
		return 0, false
	}
	perOp, ok := est.perOpOf(cell)
	if !ok {
		return 0, false
	}
	w := cell.Workload
	scale := cfg.ScaleOf(w)
	if w.ScaledData {
		perOp *= scale
	}
	runs := float64(cfg.Count) * (1 + cfg.WarmupOf(w))
	d := time.Duration(perOp * float64(w.OpsAt(scale)) * runs)
	if r, ok := replayTime(est, cell, cfg); ok {
		d += time.Duration(cfg.Count) * r
	}
	return d, true
}

// replayTime estimates the untimed replay before each run of cell: one run
// of each workload its published program ran before it in its process
// (bench.Workload.Follows), and of the workload its Setup runs
// (bench.Workload.SetupRuns), on the cell's target; 0 and true with no
// replay (--preceding-tests none, a server), false when est lacks one of
// those cells (the estimate then leaves the replay out).
func replayTime(est *estimate, cell session.Cell, cfg *session.Config) (time.Duration, bool) {
	w := cell.Workload
	if cfg.NoPreceding || !w.FreshDB || cell.Target.DB != bench.SQLite {
		return 0, true
	}
	return replayOf(w, func(p bench.Workload) (float64, bool) {
		c := cell
		c.Workload = p
		return est.perOpOf(c)
	}, cfg.ScaleOf)
}

// replayOf estimates one replay before a run of w: one run of each
// workload w follows and of the workload that one's Setup runs, each
// perOp's ns/op (as at scale 1 for ScaledData) at scaleOf's scale; false
// when perOp lacks one.
func replayOf(w bench.Workload, perOp func(bench.Workload) (float64, bool),
	scaleOf func(bench.Workload) float64) (time.Duration, bool) {
	var total time.Duration
	for _, id := range w.Follows {
		f, ok := bench.LookupWorkload(id)
		if !ok {
			return 0, false
		}
		parts := []bench.Workload{f}
		if s, ok := bench.LookupWorkload(f.SetupRuns); ok {
			parts = append(parts, s)
		}
		for _, p := range parts {
			ns, ok := perOp(p)
			if !ok {
				return 0, false
			}
			scale := scaleOf(p)
			if p.ScaledData {
				ns *= scale
			}
			total += time.Duration(ns * float64(p.OpsAt(scale)))
		}
	}
	return total, true
}

// replayClause says how much of a dry run's timed estimate is the untimed
// replay of the tests the cells' published programs ran before them.
func replayClause(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%s of it replaying, untimed, the tests the published program ran before a cell in its "+
		"process: --preceding-tests)", formatEstimate(d))
}
