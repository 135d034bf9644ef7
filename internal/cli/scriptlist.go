package cli

import (
	"fmt"
	"io"

	"github.com/sqlbench/sqlbench/targets"
)

// listScriptRefusals prints the targets that cannot run a script workload
// (sqlbench run --script), with why.
func listScriptRefusals(w io.Writer, f listFilter) {
	var lines []string
	for _, t := range targets.All() {
		if !f.target(t) {
			continue
		}
		if why := t.Refuses[targets.ScriptWorkload]; why != "" {
			lines = append(lines, "  "+t.Name+": "+why)
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "\nscript workloads (run --script) do not run on:")
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}
