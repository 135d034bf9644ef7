package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
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
		fmt.Fprint(env.Stdout, report.WrapText(d.String(), report.TextWidth, "  "))
		fmt.Fprint(env.Stdout, report.WrapText(d.Estimate(total), report.TextWidth, "  "))
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
	var rows [][4]string
	for _, st := range cells {
		wl := st.Cell.Workload
		d, ok := cellTime(est, st.Cell, cfg)
		col := "?"
		if ok {
			col, total = formatEstimate(d), total+d
		} else {
			unknown++
		}
		ops := report.Thousands(float64(wl.OpsAt(cfg.ScaleOf(wl)))) + " " + wl.Unit
		if wl.Timed && cfg.Script != nil {
			ops = cfg.Script.Time.String() + " of " + wl.Unit // a script run for a time (--time)
		}
		rows = append(rows, [4]string{st.Cell.Label(), ops, strconv.Itoa(st.Slices), col})
	}
	if err := writeCellTable(w, rows); err != nil {
		return 0, 0, err
	}
	for _, name := range p.SkippedNames() {
		fmt.Fprint(w, report.WrapText(fmt.Sprintf("skipped %s: %s", name, p.Skipped[name]), report.TextWidth, "  "))
	}
	if len(p.Later) > 0 {
		fmt.Fprint(w, report.WrapText(fmt.Sprintf("not planned at --scale %g (too big for a smaller run; use --scale 1): %s", cfg.Scale, strings.Join(p.Later, ", ")), report.TextWidth, "  "))
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
	fmt.Fprint(w, "\n"+report.WrapText(fmt.Sprintf("%d cells x %d runs (%s), each run in up to %d slices: %d passes, %d steps",
		len(cells), cfg.Count, warm, cfg.Slices, passes, len(steps)), report.TextWidth, "  "))
	builds := runnerBuilds(cfg, p, env) // the one-time builds: counted only where they would happen
	switch {
	case est == nil && unknown == 0 && len(cells) > 0: // every cell a script run for a time (--time)
		fmt.Fprint(w, report.WrapText(fmt.Sprintf("estimated time: %s timed: %d cells x %d runs of --time %s; "+
			"runner builds, server starts and each cell's set-up come on top", formatEstimate(total), len(cells), cfg.Count,
			cfg.Script.Time), report.TextWidth, "  "))
	case est == nil:
		why := "no results here to estimate from: run `sqlbench run --quick --workloads all` once"
		if estErr != nil {
			why = "no estimate: " + oneLine(estErr.Error())
		}
		fmt.Fprint(w, report.WrapText(why, report.TextWidth, "  "))
		if c := builds.clause(); c != "" {
			fmt.Fprint(w, report.WrapText("runner builds:"+strings.TrimPrefix(strings.TrimPrefix(c, ";"), " +"),
				report.TextWidth, "  "))
		}
	case !est.overhead:
		timed := total
		total += builds.counted()
		text := fmt.Sprintf("estimated time: %s timed, from each cell's median ns/op in %s", formatEstimate(timed), est.source)
		if unknown > 0 {
			text += fmt.Sprintf(" (%d of the %d cells are not there: ?)", unknown, len(cells))
		}
		text += builds.clause()
		text += "; server starts and set-up (filling the tables a query reads) come on top (the file has no began and finished lines to tell them from)"
		if builds.Known {
			text = fmt.Sprintf("estimated time: %s: ", formatEstimate(total)) + strings.TrimPrefix(text, "estimated time: ")
		}
		fmt.Fprint(w, report.WrapText(text, report.TextWidth, "  "))
	default:
		overhead := time.Duration(len(steps)) * est.perStep
		timed := total
		total += overhead + est.setUp + builds.counted()
		there := "there"
		if est.sessions > 1 {
			there = fmt.Sprintf("the median of %d sessions of these cells", est.sessions)
		}
		text := fmt.Sprintf("estimated time: %s: %s timed, from each cell's median ns/op in %s, + %s for the %d steps "+
			"(%s each beyond their operations, %s: requests, cell set-ups, probes) + %s start-up (servers, runners)",
			formatEstimate(total), formatEstimate(timed), est.source, formatEstimate(overhead), len(steps),
			est.perStep.Round(time.Millisecond), there, formatEstimate(est.setUp))
		text += builds.clause()
		if unknown > 0 {
			text += fmt.Sprintf(" (%d of the %d cells are not there: ?, not counted)", unknown, len(cells))
		}
		fmt.Fprint(w, report.WrapText(text, report.TextWidth, "  "))
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
	return time.Duration(perOp * float64(w.OpsAt(scale)) * runs), true
}

// writeCellTable writes the dry run's cells: name, operations per run,
// slices per run and estimated time, one line each; where that is wider
// than report.TextWidth, each name on a line of its own and its figures
// indented below it.
func writeCellTable(w io.Writer, rows [][4]string) error {
	header := [4]string{"CELL", "OPS/RUN", "SLICES/RUN", "EST. TIME"}
	var one bytes.Buffer
	tw := tabwriter.NewWriter(&one, 0, 0, 2, ' ', 0)
	for _, r := range append([][4]string{header}, rows...) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r[0], r[1], r[2], r[3])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	wide := false
	for _, line := range strings.Split(one.String(), "\n") {
		wide = wide || utf8.RuneCountInString(strings.TrimRight(line, " ")) > report.TextWidth
	}
	if !wide {
		_, err := w.Write(one.Bytes())
		return err
	}
	var two bytes.Buffer
	width := [4]int{}
	for _, r := range append([][4]string{header}, rows...) {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	figures := func(r [4]string) string {
		return strings.TrimRight(fmt.Sprintf("    %-*s  %-*s  %s", width[1], r[1], width[2], r[2], r[3]), " ") + "\n"
	}
	two.WriteString(header[0] + "\n" + figures(header))
	for _, r := range rows {
		two.WriteString(breakName(r[0], report.TextWidth) + "\n" + figures(r))
	}
	_, err := w.Write(two.Bytes())
	return err
}

// breakName breaks a cell's name wider than width after a '/', the rest
// on lines of their own indented by two.
func breakName(name string, width int) string {
	var b strings.Builder
	for len(name) > width {
		cut := strings.LastIndexByte(name[:width], '/')
		if cut <= 2 {
			break
		}
		b.WriteString(name[:cut+1] + "\n")
		name = "  " + name[cut+1:]
	}
	return b.String() + name
}
