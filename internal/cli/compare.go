package cli

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/report"
)

// errRegression marks a comparison that found a significant regression
// above --fail-over: exit status 1.
var errRegression = errors.New("significant regression above the --fail-over threshold")

// compareCmd compares two results files (or label=path pairs) cell by cell.
func compareCmd(args []string, env Env) error {
	fs := newFlags("compare")
	failOver := fs.String("fail-over", "", "exit 1 when a significant regression exceeds this change of the median, e.g. 5%")
	operands, err := parseWithFiles(fs, args, env)
	if err != nil {
		return err
	}
	if len(operands) != 2 {
		return usagef("compare: name two results files: OLD NEW (or label=path pairs)")
	}
	threshold := -1.0
	if *failOver != "" {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(*failOver), "%"), 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return usagef("compare: --fail-over: want a percentage such as 5%%, got %q", *failOver)
		}
		threshold = v / 100
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
	c := report.Compare(oldLabel, oldRs, newLabel, newRs)
	if len(c.Changes) == 0 {
		return usagef("compare: %s and %s have no cell in common", oldPath, newPath)
	}
	if threshold >= 0 {
		if few := c.Undecidable(); len(few) > 0 {
			ch := few[0]
			return usagef("compare: --fail-over can never fire: %d of %d cells have too few runs for a Mann-Whitney U test at alpha %g to find any change significant (%s: %d old, %d new); it needs at least %d runs per side (run --count %d)",
				len(few), len(c.Changes), report.Alpha, ch.Name, ch.OldN, ch.NewN, report.MinRuns(), report.MinRuns())
		}
	}
	if err := c.Text(env.Stdout); err != nil {
		return err
	}
	for _, unit := range report.TimeShareUnits() {
		if report.HasUnit(oldRs, unit) && report.HasUnit(newRs, unit) {
			fmt.Fprintln(env.Stdout)
			if err := report.CompareUnit(oldLabel, oldRs, newLabel, newRs, unit).Text(env.Stdout); err != nil {
				return err
			}
		}
	}
	if threshold >= 0 {
		if regs := c.Regressions(threshold); len(regs) > 0 {
			for _, ch := range regs {
				fmt.Fprintf(env.Stderr, "regression: %s %s (p=%.3f)\n", ch.Name, ch.DeltaString(), ch.P)
			}
			return errRegression
		}
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
