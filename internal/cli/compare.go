package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/report"
)

// errRegression marks a comparison that found a significant regression
// above --fail-over: exit status 1.
var errRegression = errors.New("significant regression above the --fail-over threshold")

// compareCmd compares two results files (or label=path pairs) cell by cell
// in every unit, as text or as Markdown for a pull-request comment.
func compareCmd(args []string, env Env) error {
	fs := newFlags("compare")
	failOver := fs.String("fail-over", "", "exit 1 when a significant regression exceeds a change of the median: 5% (ops/s, or ns/op), or per unit, e.g. ops/s=5%,B/op=10%,p99=20%")
	format := fs.String("format", "text", "output: text or markdown (for a pull-request comment)")
	md := fs.Bool("md", false, "same as --format markdown")
	operands, err := parseWithFiles(fs, args, env)
	if err != nil {
		return err
	}
	if len(operands) != 2 {
		return usagef("compare: name two results files: OLD NEW (or label=path pairs)")
	}
	if *md {
		*format = "markdown"
	}
	if *format != "text" && *format != "markdown" {
		return usagef("compare: --format: want text or markdown, got %q", *format)
	}
	var th report.Thresholds
	if *failOver != "" {
		if th, err = report.ParseThresholds(*failOver); err != nil {
			return usagef("compare: --fail-over: %v", err)
		}
	}
	oldLabel, oldPath := labelPath(operands[0], "old")
	newLabel, newPath := labelPath(operands[1], "new")
	oldRs, err := readResults([]string{oldPath})
	if err != nil {
		return err
	}
	newRs, err := readResults([]string{newPath})
	if err != nil {
		return err
	}
	cs := report.CompareUnits(oldLabel, oldRs, newLabel, newRs)
	if cs.Compared() == 0 {
		return usagef("compare: %s and %s have no cell in common", oldPath, newPath)
	}
	if th, err = cs.Resolve(th); err != nil {
		return usagef("compare: --fail-over: %v", err)
	}
	if few := cs.Undecidable(th); len(few) > 0 {
		ch, cells := few[0], map[string]bool{}
		for _, f := range few {
			cells[f.Name] = true
		}
		return usagef("compare: --fail-over can never fire: %d of %d cells have too few runs for a Mann-Whitney U test at alpha %g to find any change significant (%s: %d old, %d new); it needs at least %d runs per side (run --count %d)",
			len(cells), cs.Compared(), report.Alpha, ch.Name, ch.OldN, ch.NewN, report.MinRuns(), report.MinRuns())
	}
	if *format == "markdown" {
		err = cs.Markdown(env.Stdout, th)
	} else {
		err = cs.Text(env.Stdout)
	}
	if err != nil {
		return err
	}
	if regs := cs.Regressions(th); len(regs) > 0 {
		for _, ch := range regs {
			fmt.Fprintf(env.Stderr, "regression: %s %s %s (p=%.3f, threshold %g%%)\n", ch.Name, ch.Unit, ch.DeltaString(), ch.P, 100*ch.Threshold)
		}
		return errRegression
	}
	return nil
}

// labelPath splits a label=path operand; a bare path is labelled with def.
func labelPath(arg, def string) (label, path string) {
	if l, p, ok := strings.Cut(arg, "="); ok && l != "" && !strings.ContainsAny(l, "/\\") {
		return l, p
	}
	return def, arg
}
