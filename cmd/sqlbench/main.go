// Command sqlbench benchmarks Go SQL drivers on identical workloads. See the
// README, or run 'sqlbench help'.
package main

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/sqlbench/sqlbench/internal/cli"
	"github.com/sqlbench/sqlbench/internal/link"
)

func main() {
	// The link emulator's proxy is this executable too (package link).
	link.RunProxyIfAsked()
	// SIGHUP (the terminal went away) ends a run as Ctrl-C does: finished
	// results kept, throwaway servers and temporary databases removed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	dir, _ := os.Getwd()
	width, _, err := term.GetSize(int(os.Stdout.Fd()))
	if err != nil {
		width = 0 // not a terminal
	}
	code := cli.Main(ctx, os.Args[1:], cli.Env{
		Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, LookPath: exec.LookPath, Dir: dir,
		StderrTTY: term.IsTerminal(int(os.Stderr.Fd())), StdoutWidth: width,
	})
	stop()
	os.Exit(code)
}
