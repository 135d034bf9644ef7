// Command sqlbench-runner is the Go runner process: it serves the sqlbench
// runner protocol (package internal/protocol; the loop is internal/runner)
// on stdin and stdout for the targets linked into it. Build tags choose the
// driver group: each group_*.go file links one group's targets, because cgo
// SQLite libraries export the same C symbols and cannot share a binary.
// sqlbench builds and caches one binary per group; it is not meant to be
// run by hand.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/sqlbench/sqlbench/internal/runner"
	_ "github.com/sqlbench/sqlbench/workloads" // registers the workload catalogue
)

func main() {
	// The orchestrator owns the runner's lifetime: it closes stdin to stop
	// it, or kills it. A Ctrl-C in the terminal is the orchestrator's to
	// handle, so the runner ignores it and finishes the reply it is writing.
	signal.Ignore(os.Interrupt)
	// A busy machine's other programs wait behind the runner, not it
	// behind them (docs/methodology.md); SQLBENCH_PRIORITY=normal leaves it.
	priority := runner.RaisePriority(os.Getenv(runner.PriorityEnv))
	s := &runner.Loop{In: os.Stdin, Out: os.Stdout, Log: os.Stderr, Priority: priority}
	if err := s.Serve(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "sqlbench-runner:", err)
		os.Exit(1)
	}
}
