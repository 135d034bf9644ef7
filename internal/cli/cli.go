// Package cli is sqlbench's command line: it turns flags into the
// configuration of a subcommand and prints what came of it; the work is
// done by the packages it calls (session for run). Main returns the
// process exit status:
//
//	0  everything ran
//	1  the session ran, but some targets were skipped or some cells failed;
//	   or compare found a significant regression above --fail-over; or
//	   server stop KIND found no such server to stop
//	2  bad input: unknown names, bad flags, unwritable paths, corrupt files
//	3  the machine failed the run: no target could be built or run here, a
//	   disk or a server failed, a report could not be written
//	130 interrupted (Ctrl-C); finished results are kept
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/sqlbench/sqlbench/internal/session"
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
}

// session returns what a benchmark session reads from env; its log is
// Stderr.
func (env Env) session() session.Env {
	return session.Env{Getenv: env.Getenv, LookPath: env.LookPath, Dir: env.Dir, Log: env.Stderr, LogTTY: env.StderrTTY}
}

// usageError is bad input: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

const usage = `usage: sqlbench <command> [flags]

commands:
  run      benchmark workloads on targets and write results (default: SQLite, every driver)
  list     show every target and workload, and which targets this machine can run
  server   start, stop or list throwaway MariaDB/PostgreSQL servers
  report   tables, Markdown, HTML, CSV, JSON and PNG charts from results files
  compare  compare two results files cell by cell (Mann-Whitney U test)
  clean    drop the tables a killed session left in your database
  version  print the version
  help     show this help

Run 'sqlbench <command> -h' for a command's flags.
`

// Main runs the command line args (without the program name).
func Main(ctx context.Context, args []string, env Env) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return ExitUsage
	}
	var err error
	switch args[0] {
	case "run":
		err = runCmd(ctx, args[1:], env)
	case "list":
		err = listCmd(args[1:], env)
	case "server":
		err = serverCmd(ctx, args[1:], env)
	case "report":
		err = reportCmd(args[1:], env)
	case "compare":
		err = compareCmd(args[1:], env)
	case "clean":
		err = cleanCmd(ctx, args[1:], env)
	case "version":
		fmt.Fprintln(env.Stdout, strings.Join(session.VersionLines(env.Dir), "\n"))
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, usage)
	default:
		err = usagef("unknown command %q (valid: run, list, server, report, compare, clean, version, help)", args[0])
	}
	return exitStatus(err, env.Stderr)
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
	case errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "sqlbench: interrupted")
		return ExitInterrupted
	case errors.Is(err, errRegression):
		fmt.Fprintln(stderr, "sqlbench:", err)
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

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name string) *flag.FlagSet {
	return flag.NewFlagSet("sqlbench "+name, flag.ContinueOnError)
}

// parseFlags parses args, turning flag errors into usage errors; -h prints
// the flags to stdout.
func parseFlags(fs *flag.FlagSet, args []string, env Env) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(env.Stdout)
		fmt.Fprintf(env.Stdout, "usage: %s [flags]\n\nflags:\n", fs.Name())
		fs.PrintDefaults()
		return err
	}
	if err != nil {
		return usagef("%s: %v", fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

// parseWithFiles parses args whose flags may come before, between or after
// file names, and returns the file names; -h prints the flags to stdout.
func parseWithFiles(fs *flag.FlagSet, args []string, env Env) ([]string, error) {
	fs.SetOutput(io.Discard)
	var files []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(env.Stdout)
			fmt.Fprintf(env.Stdout, "usage: %s [flags] FILE...\n\nflags:\n", fs.Name())
			fs.PrintDefaults()
			return nil, err
		}
		if err != nil {
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		if fs.NArg() == 0 {
			return files, nil
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
