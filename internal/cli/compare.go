package cli

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/sqlbench/sqlbench/report"
)

// errRegression marks a comparison that found a significant regression
// above --fail-over: exit status 1.
var errRegression = errors.New("significant regression above the --fail-over threshold")

// compareCommand is sqlbench compare.
func compareCommand(env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "compare [flags] OLD NEW",
		Short: "compare two results files cell by cell (Mann-Whitney U test)",
		Long: `Compare prints, for every cell two results files have in common, the change of
its median and whether it is significant (Mann-Whitney U test), with the
geometric mean of the medians. OLD and NEW are paths, or label=path pairs that name
the columns.`,
		Example: `  sqlbench compare results/before.txt results/after.txt
  sqlbench compare main=results/main.txt pr=results/pr.txt
  sqlbench compare --fail-over 5% results/main.txt results/pr.txt   # exit 1 on a regression above 5%`,
	}
	failOver := c.Flags().String("fail-over", "", "exit 1 when a significant regression exceeds this change of the median, e.g. 5%")
	c.RunE = func(_ *cobra.Command, operands []string) error { return compareFiles(operands, *failOver, env) }
	return c
}

// compareFiles compares two results files (or label=path pairs) cell by
// cell.
func compareFiles(operands []string, failOver string, env Env) error {
	if len(operands) != 2 {
		return usagef("compare: name two results files: OLD NEW (or label=path pairs)")
	}
	threshold := -1.0
	if failOver != "" {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(failOver), "%"), 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return usagef("compare: --fail-over: want a percentage such as 5%%, got %q", failOver)
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
