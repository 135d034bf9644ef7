package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sqlbench/sqlbench/internal/pick"
	"github.com/sqlbench/sqlbench/internal/session"
)

// The command line is built on cobra (github.com/spf13/cobra): it parses
// the flags (pflag: --long and -x), prints each command's help with its
// examples (sqlbench help CMD, CMD -h) and writes the shell completion
// scripts (sqlbench completion bash|zsh|fish). Adding a command is a
// function returning its *cobra.Command, listed in commands; adding a flag
// is one line where the command defines its flags.

// commands returns sqlbench's commands, in the order help lists them.
func commands(ctx context.Context, env Env) []*cobra.Command {
	return []*cobra.Command{
		runCommand(ctx, env),
		listCommand(env),
		serverCommand(ctx, env),
		reportCommand(env),
		compareCommand(env),
		historyCommand(env),
		reproduceCommand(ctx, env),
		bisectCommand(ctx, env),
		cleanCommand(ctx, env),
		versionCommand(env),
	}
}

// newRoot returns the root command; args are the arguments it will parse
// (for the hint about single-dash long flags).
func newRoot(ctx context.Context, env Env, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "sqlbench <command> [flags]",
		Short: "benchmark Go SQL drivers on the published workloads, on this machine",
		Long: `sqlbench reruns the published Go SQL-driver benchmark studies on every driver
(SQLite, MariaDB/MySQL, PostgreSQL) on this machine, and reports them.

Exit status: 0 everything ran; 1 something planned did not run (a skipped
target, a failed cell), compare found a regression above --fail-over, or
server stop or server dsn found no such server, or server stop left one a
session uses; 2 bad input; 3 the machine failed the run; 130 interrupted
(finished results are kept).`,
		Example: `  sqlbench run                      # SQLite, every driver, the classic suite (about a minute)
  sqlbench run --db postgres        # starts a throwaway PostgreSQL
  sqlbench list
  sqlbench help run`,
		Args:          unknownCommand,
		RunE:          func(c *cobra.Command, _ []string) error { return c.Help() },
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       session.Version(),
	}
	// Cobra's own suggestions (an unknown command below the root) within
	// two edits; the root's, unknownCommand, use pick.Suggest.
	root.SuggestionsMinimumDistance = 2
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetContext(ctx)
	root.SetVersionTemplate("sqlbench {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return flagError(c, err, args)
	})
	root.AddCommand(commands(ctx, env)...)
	root.SetHelpCommand(helpCommand(root))
	fitHelp(root, env.width())
	root.InitDefaultCompletionCmd()
	return root
}

// wideFlag defines --wide on c, a command that prints tables, bound to
// env.
func wideFlag(c *cobra.Command, env Env) {
	if env.wide != nil {
		c.Flags().BoolVar(env.wide, "wide", false, "print every table whole, however wide (default: a table wider "+
			"than the terminal, or 100 columns when not one, is split into parts of as many targets as fit)")
	}
}

// detailsFlag defines --details on c, a command that runs sessions (run,
// reproduce): the outcome with every table and machine fact
// (printOutcome).
func detailsFlag(c *cobra.Command, env Env) {
	if env.details != nil {
		c.Flags().BoolVar(env.details, "details", false, "after the session, print every table (ratios, memory and "+
			"latency, where the time goes) and the machine's drift, steal and wake-ups, as the reports and sqlbench "+
			"report show them (default: the ops/s tables, the verdicts, one line of noise, what to do next)")
	}
}

// quietFlag defines --quiet on c, a command that runs sessions (run,
// reproduce): its log goes nowhere (Env.session).
func quietFlag(c *cobra.Command, env Env) {
	if env.quiet != nil {
		c.Flags().BoolVarP(env.quiet, "quiet", "q", false, "print no progress and no log lines on stderr: only the "+
			"results, the tables and errors")
	}
}

// unknownCommand refuses an argument of the root command: it is not one
// of the commands.
func unknownCommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return usagef("unknown command %q%s", args[0], pick.DidYouMean(args[0], names))
}

// flagError turns a flag parsing error into bad input. A long flag typed
// with one dash (-count, which Go's flag package accepted) is named.
func flagError(c *cobra.Command, err error, args []string) error {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && c.Flags().Lookup(name) != nil {
			return usagef("%s: %s: long flags take two dashes: -%s", c.CommandPath(), a, a)
		}
	}
	var bad *pflag.InvalidValueError
	if errors.As(err, &bad) {
		// The flag's problem, without its value: a --dsn value holds a
		// password.
		return usagef("--%s: %v", bad.GetFlag().Name, errors.Unwrap(bad))
	}
	return usagef("%s: %v", c.CommandPath(), err)
}

// noArgs refuses any argument.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s: unexpected argument %q", c.CommandPath(), args[0])
	}
	return nil
}

// set reports whether flag name was given on c's command line.
func set(c *cobra.Command, name string) bool {
	f := c.Flags().Lookup(name)
	return f != nil && f.Changed
}

// setFlags returns the names of the flags given on c's command line.
func setFlags(c *cobra.Command) []string {
	var names []string
	c.Flags().Visit(func(f *pflag.Flag) { names = append(names, f.Name) })
	return names
}

// complete offers values as the completions of a flag.
func complete(c *cobra.Command, flag string, values func() []string) {
	_ = c.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values(), cobra.ShellCompDirectiveNoFileComp
	})
}

// completeList offers values as the completions of each element of a
// comma-separated flag: after "mattn,mo" it offers "mattn,modernc".
func completeList(c *cobra.Command, flag string, values func() []string) {
	_ = c.RegisterFlagCompletionFunc(flag,
		func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
			head := ""
			if i := strings.LastIndex(typed, ","); i >= 0 {
				head = typed[:i+1]
			}
			var out []string
			for _, v := range values() {
				out = append(out, head+v)
			}
			return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
		})
}

// helpCommand is sqlbench help [COMMAND...]: a command's help, with its
// flags and examples; an unknown command is bad input.
func helpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:     "help [command]",
		Short:   "show the help of a command, with its flags and examples",
		Example: "  sqlbench help run\n  sqlbench help server start",
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			c, _, _ := root.Find(args)
			var out []string
			for _, sub := range c.Commands() {
				if sub.IsAvailableCommand() {
					out = append(out, sub.Name())
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			c, rest, err := root.Find(args)
			switch {
			case err != nil || c == nil:
				return unknownCommand(root, args)
			case len(rest) > 0:
				return unknownCommand(c, rest)
			}
			return c.Help()
		},
	}
}

// versionCommand prints the version.
func versionCommand(env Env) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "print the version",
		Example: "  sqlbench version",
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintln(env.Stdout, strings.Join(session.VersionLines(env.Dir), "\n"))
			return nil
		},
	}
}
