// Package cli is sqlbench's command line: it turns flags into the
// configuration of a subcommand and prints what came of it; the work is
// done by the packages it calls (session for run). Main returns the
// process exit status:
//
//	0  everything ran
//	1  the session ran, but some targets were skipped or some cells failed;
//	   or compare found a significant regression above --fail-over; or
//	   server stop KIND found no such server to stop, or left one a live
//	   session uses
//	2  bad input: unknown names, bad flags, unwritable paths, corrupt files
//	3  the machine failed the run: no target could be built or run here, a
//	   disk or a server failed, a report could not be written
//	130 interrupted (Ctrl-C); finished results are kept
package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// Exit statuses.
const (
	ExitOK          = 0
	ExitPartial     = 1
	ExitUsage       = 2
	ExitFailed      = 3
	ExitInterrupted = 130
)

// Env is what the command line reads from its surroundings, so that tests
// can set it.
type Env struct {
	// Stdout and Stderr are the outputs.
	Stdout, Stderr io.Writer
	// Getenv reads an environment variable.
	Getenv func(string) string
	// LookPath finds a program on PATH.
	LookPath func(string) (string, error)
	// Dir is the working directory.
	Dir string
	// StderrTTY is set when Stderr is a terminal.
	StderrTTY bool
	// StdoutWidth is the width of the terminal Stdout is, in columns; 0
	// when it is not a terminal (tables and help then fit 100 columns).
	StdoutWidth int
	// DMALatency is the PM QoS device run --idle-latency low holds; ""
	// means the kernel's (tests name another file).
	DMALatency string
	// quiet is the --quiet flag, set by Main.
	quiet *bool
	// wide is the --wide flag of the commands that print tables.
	wide *bool
	// details is the --details flag of the commands that run sessions.
	details *bool
}

// isWide reports whether --wide was given.
func (env Env) isWide() bool { return env.wide != nil && *env.wide }

// outcomeView is how a session's outcome is printed: within the tables'
// width, with every detail when --details was given.
func (env Env) outcomeView() outcomeView {
	return outcomeView{Width: env.tableWidth(), Details: env.details != nil && *env.details, Dir: env.Dir}
}

// width is the columns output fits in: the terminal's, or
// textlayout.Width when stdout is not a terminal.
func (env Env) width() int { return cmp.Or(env.StdoutWidth, textlayout.Width) }

// tableWidth is the columns the result tables fit in: width, or 0 (each
// table whole) with --wide.
func (env Env) tableWidth() int {
	if env.isWide() {
		return 0
	}
	return env.width()
}

// session returns what a benchmark session reads from env; its log is
// Stderr, or nothing with --quiet.
func (env Env) session() session.Host {
	if env.quiet != nil && *env.quiet {
		return session.Host{Getenv: env.Getenv, LookPath: env.LookPath, Dir: env.Dir, Log: io.Discard,
			DMALatency: env.DMALatency}
	}
	return session.Host{Getenv: env.Getenv, LookPath: env.LookPath, Dir: env.Dir, Log: env.Stderr,
		LogTTY: env.StderrTTY, DMALatency: env.DMALatency}
}

// usageError is bad input: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// Main runs the command line args (without the program name).
func Main(ctx context.Context, args []string, env Env) int {
	env.quiet, env.wide, env.details = new(bool), new(bool), new(bool)
	root := newRoot(ctx, env, args)
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, root.UsageString())
		return ExitUsage
	}
	if args[0] == "-help" {
		args = append([]string{"--help"}, args[1:]...)
	}
	root.SetArgs(args)
	return exitStatus(root.Execute(), env.Stderr)
}

// errPartial marks a session that ran but skipped or failed something; the
// details were already printed.
var errPartial = errors.New("some targets were skipped or some cells failed")

func exitStatus(err error, stderr io.Writer) int {
	var ue usageError
	var ie session.InputError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, pflag.ErrHelp):
		return ExitOK
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "sqlbench: interrupted")
		return ExitInterrupted
	case errors.Is(err, errRegression):
		fmt.Fprintln(stderr, "sqlbench:", err)
		return ExitPartial
	case errors.Is(err, errInUse):
		fmt.Fprintln(stderr, "sqlbench: server stop:", oneLine(strings.TrimPrefix(err.Error(), errInUse.Error()+": ")))
		return ExitPartial
	case errors.Is(err, errNoServer):
		fmt.Fprintln(stderr, "sqlbench:", oneLine(err.Error()))
		return ExitPartial
	case errors.Is(err, errPartial):
		fmt.Fprintln(stderr, "sqlbench:", err)
		return ExitPartial
	case errors.As(err, &ue), errors.As(err, &ie):
		fmt.Fprintln(stderr, "sqlbench:", oneLine(err.Error()))
		return ExitUsage
	default:
		fmt.Fprintln(stderr, "sqlbench:", oneLine(err.Error()))
		return ExitFailed
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
