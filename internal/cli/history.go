package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/changepoint"
	"github.com/sqlbench/sqlbench/internal/history"
	"github.com/sqlbench/sqlbench/internal/redact"
)

// historyCommand is sqlbench history: record, show, export.
func historyCommand(env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "history <record|show|export> [flags]",
		Short: "keep sessions in a history database and show each cell's trend with its change points",
		Long: `History keeps the sessions you record, in a SQLite database in your data
directory ($XDG_DATA_HOME/sqlbench/history.db, else
~/.local/share/sqlbench/history.db) or, for a team, in a PostgreSQL database
(--db postgres://...). A session is filed by its machine (the processor,
cores, memory, OS), its settings (count, slices, scale, warm-up, CPU placement,
the cell's database and driver settings), its cells and their targets' versions.

show prints each cell's trend, one point per session (the median of its runs),
cut at the change points E-Divisive means finds (Matteson and James 2014, as
MongoDB and Apache Otava run it; a permutation test at 1%; docs/methodology.md).
A series never spans two machines or two sets of settings: each is its own.
export writes the recorded runs back in the Go benchmark format (benchstat
reads it).`,
		Example: `  sqlbench history record results/*.txt
  sqlbench history show --target mattn --workload SimpleQuery
  sqlbench history show --unit allocs/op --points
  sqlbench history export --target mattn > mattn.txt
  sqlbench history --db postgres://bench@db.example/bench record results/sqlbench-20261128-101721.txt`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("history: name a subcommand: record, show or export")
			}
			return usagef("history: unknown subcommand %q (valid: record, show, export)", args[0])
		},
		RunE: func(*cobra.Command, []string) error { return nil },
	}
	var dsn string
	c.PersistentFlags().StringVar(&dsn, "db", "", "the history database: a PostgreSQL URL (postgres://...) "+
		"or keyword/value DSN (host=... dbname=...), or a SQLite file "+
		"(default: $XDG_DATA_HOME/sqlbench/history.db, else ~/.local/share/sqlbench/history.db)")
	open := func(ctx context.Context) (*history.Store, error) {
		path := dsn
		if path == "" {
			if path = history.DefaultPath(env.Getenv); path == "" {
				return nil, usagef("history: neither XDG_DATA_HOME nor HOME is set: name the database with --db")
			}
		}
		if history.IsPostgres(path) {
			if _, err := redact.DSN(bench.Postgres, path); err != nil {
				return nil, usagef("history: --db: %v", err)
			}
		}
		return history.Open(ctx, path)
	}
	var f history.Filter
	filterFlags := func(c *cobra.Command) {
		c.Flags().StringVar(&f.Target, "target", "", "only this target's cells: a driver as the cells name it (mattn, "+
			"mattn@v1.14.22, a glob); a name without @ takes its versions too")
		c.Flags().StringVar(&f.Workload, "workload", "", "only this workload's cells (a name or a glob)")
	}

	record := &cobra.Command{
		Use:   "record RESULTS...",
		Short: "record results files (a session recorded already is skipped)",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("history record: name one or more results files")
			}
			return nil
		},
		RunE: func(c *cobra.Command, paths []string) error {
			sets := make([]*benchfile.Set, len(paths))
			ids := make([]string, len(paths))
			for i, p := range paths { // read every file before recording any
				b, err := os.ReadFile(p)
				if err != nil {
					return usagef("history record: results file %s: %v", p, unwrapPathError(err))
				}
				if sets[i], err = benchfile.Read(bytes.NewReader(b), p); err != nil {
					return usagef("history record: %v", err)
				}
				if len(sets[i].Results) == 0 {
					return usagef("history record: %s holds no results", p)
				}
				if _, err := benchfile.ParseHeader(sets[i].Results[0].Config); err != nil {
					return usagef("history record: %s: %v", p, err)
				}
				ids[i] = history.SessionID(sets[i], b)
			}
			s, err := open(c.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			added := 0
			for i, p := range paths {
				ok, err := s.Record(c.Context(), ids[i], p, sets[i], time.Now())
				if err != nil {
					return err
				}
				if ok {
					added++
					fmt.Fprintf(env.Stdout, "recorded session %s (%s, %d runs)\n", ids[i], p, len(sets[i].Results))
				} else {
					fmt.Fprintf(env.Stdout, "skipped session %s (%s): recorded already\n", ids[i], p)
				}
			}
			n, err := s.Sessions(c.Context())
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "%d recorded, %d skipped; %s holds %d sessions\n", added, len(paths)-added,
				s.Where(), n)
			return nil
		},
	}

	var unit, htmlPath string
	var points bool
	show := &cobra.Command{
		Use:   "show [flags]",
		Short: "print each cell's trend across the recorded sessions, with its change points",
		Args:  noOperands("history show"),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := f.Check(); err != nil {
				return usagef("history show: %v", err)
			}
			s, err := open(c.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			series, err := s.Series(c.Context(), f, unit, changepoint.Options{})
			if err != nil {
				return err
			}
			if len(series) == 0 {
				fmt.Fprintf(env.Stderr, "history show: no recorded cell has %s for these filters in %s\n", unit,
					s.Where())
				return nil
			}
			if err := history.WriteText(env.Stdout, series, points); err != nil {
				return err
			}
			if htmlPath == "" {
				return nil
			}
			var page bytes.Buffer
			if err := history.WriteHTML(&page, series); err != nil {
				return err
			}
			if err := os.WriteFile(htmlPath, page.Bytes(), 0o644); err != nil {
				return usagef("history show: --html %s: %v", htmlPath, unwrapPathError(err))
			}
			fmt.Fprintf(env.Stderr, "history show: wrote %s\n", htmlPath)
			return nil
		},
	}
	filterFlags(show)
	show.Flags().StringVar(&unit, "unit", "ns/op",
		"the measure to show, as the results name it (ns/op, allocs/op, B/op, "+
			"p99-ns/op, ...)")
	show.Flags().StringVar(&htmlPath, "html", "", "also write the trends, each with a chart of its sessions and "+
		"its segments' medians, to this HTML file")
	show.Flags().BoolVar(&points, "points", false,
		"also list every session's value, target version and Go and kernel versions")

	export := &cobra.Command{
		Use:   "export [flags] > out.txt",
		Short: "write the recorded runs in the Go benchmark format (benchstat reads it)",
		Args:  noOperands("history export"),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := f.Check(); err != nil {
				return usagef("history export: %v", err)
			}
			s, err := open(c.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			n, err := s.Export(c.Context(), f, env.Stdout)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stderr, "history export: %d sessions from %s\n", n, s.Where())
			return nil
		},
	}
	filterFlags(export)
	c.AddCommand(record, show, export)
	return c
}

// noOperands refuses operands of a command that takes none.
func noOperands(what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("%s: takes no operands, got %q (filters are flags: --target, --workload)", what, args[0])
		}
		return nil
	}
}

// unwrapPathError is err without the path an *os.PathError repeats.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
