package cli

import (
	"fmt"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/benchfile"
	"github.com/sqlbench/sqlbench/report"
)

// reportCmd prints the tables of one or more results files, as run prints
// them at its end.
func reportCmd(args []string, env Env) error {
	fs := newFlags("report")
	if err := fs.Parse(args); err != nil {
		return usagef("report: %v", err)
	}
	if fs.NArg() == 0 {
		return usagef("report: name at least one results file")
	}
	var all []*benchfmt.Result
	for _, path := range fs.Args() {
		set, err := benchfile.ReadFile(path)
		if err != nil {
			return usageError{err.Error()}
		}
		if len(set.Results) == 0 {
			return usagef("%s holds no results", path)
		}
		all = append(all, set.Results...)
	}
	fmt.Fprintln(env.Stdout)
	return report.Text(env.Stdout, report.Summarize(all), nil)
}
