package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/journal"
	"github.com/sqlbench/sqlbench/internal/published"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
)

// reportCommand is sqlbench report.
func reportCommand(env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "report [flags] FILE...",
		Short: "tables, Markdown, HTML, CSV, JSON and PNG charts from results files",
		Long: `Report reads one or more results files and writes their report: the text
tables on stdout, the other formats into files named after -o (default: the
first results file without its extension). The CSV is tidy, one row per
cell and unit; the configuration the cells ran under is written once, in
PREFIX-config.csv. A plain go test -bench file (no sqlbench keys) gets the
medians of each benchmark in text only.`,
		Example: `  sqlbench report results/sqlbench-20260101-120000.txt
  sqlbench report --format markdown,html results/a.txt results/b.txt
  sqlbench report --format json -o - results/a.txt > a.json`,
	}
	fs := c.Flags()
	fs.SortFlags = false
	format := fs.String("format", "text",
		"comma-separated formats: text (stdout), markdown, html, csv, json, png (one file per chart)")
	out := fs.StringP("output", "o", "", "output path prefix: writes PREFIX.md, PREFIX.html, PREFIX.csv and "+
		"PREFIX-config.csv, PREFIX.json, PREFIX-<chart>.png (default: the first results file without its extension); "+
		"- writes the one format asked for to stdout")
	baseline := fs.String("baseline", "", "the target the ratio tables set every other against, per workload "+
		"(default: the first target of each table in catalogue order)")
	var resolution float64
	fs.Var(&resolutionFlag{p: &resolution, text: "5%"}, "resolution", resolutionUsage)
	wideFlag(c, env)
	completeList(c, "format", func() []string { return []string{"text", "markdown", "html", "csv", "json", "png"} })
	c.RunE = func(c *cobra.Command, paths []string) error {
		if err := reportNoops(c, *format); err != nil {
			return err
		}
		return writeReport(paths, *format, *out, *baseline, resolution, env)
	}
	return c
}

// writeReport writes the report of the results files paths in the formats
// asked for, its ratio tables against baseline ("" for each table's first
// target) at resolution (0: report.DefaultResolution).
func writeReport(paths []string, format, out, baseline string, resolution float64, env Env) error {
	if len(paths) == 0 {
		return usagef("report: name at least one results file")
	}
	baseline, err := checkBaseline(baseline)
	if err != nil {
		return err
	}
	var formats []string
	for _, f := range strings.Split(format, ",") {
		f = strings.TrimSpace(f)
		if _, ok := report.Formats()[f]; !ok {
			return usagef("report: --format: unknown format %q (valid: text, markdown, html, csv, json, png)", f)
		}
		if !slices.Contains(formats, f) {
			formats = append(formats, f)
		}
	}
	rs, err := readMerged(paths, env.Stderr)
	if err != nil {
		return err
	}
	if report.Plain(rs) {
		return plainReport(rs, formats, env)
	}
	r := report.New(rs, nil, session.WorkloadInfo)
	r.Sources = paths
	r.Baseline, r.Resolution, r.Width = baseline, resolution, env.tableWidth()
	r.Partial = partialNote(paths)
	r.Parts = published.Parts(r)
	if r.Partial != "" {
		fmt.Fprintln(env.Stderr, "partial:", r.Partial)
	}
	if slices.Contains(formats, "text") {
		fmt.Fprintln(env.Stdout)
		if err := report.Text(env.Stdout, r); err != nil {
			return err
		}
		for _, t := range published.Tables(r) {
			fmt.Fprintf(env.Stdout, "\npublished beside measured: %s\n", t.Study.ID)
			if err := published.Text(env.Stdout, t); err != nil {
				return err
			}
		}
		formats = slices.DeleteFunc(formats, func(f string) bool { return f == "text" })
	}
	if len(formats) == 0 {
		return nil
	}
	if out == "-" {
		if len(formats) != 1 || formats[0] == "png" {
			return usagef("report: -o - takes exactly one of markdown, html, csv, json")
		}
		return report.WriteFormat(env.Stdout, r, formats[0])
	}
	prefix := out
	if prefix == "" {
		prefix = strings.TrimSuffix(paths[0], filepath.Ext(paths[0]))
	}
	if !filepath.IsAbs(prefix) && env.Dir != "" {
		prefix = filepath.Join(env.Dir, prefix)
	}
	written, err := report.WriteFiles(r, prefix, formats)
	for _, p := range written {
		fmt.Fprintln(env.Stdout, "wrote", p)
	}
	var fe *report.FileError
	if errors.As(err, &fe) {
		return usageError{err.Error()} // the -o the user gave cannot be written
	}
	return err
}

// plainReport reports results without sqlbench's keys (a plain go test
// -bench file): in text, one line on what it shows, then each benchmark's
// medians; any other format is bad input, which names benchstat.
func plainReport(rs []*benchfmt.Result, formats []string, env Env) error {
	if others := slices.DeleteFunc(slices.Clone(formats), func(f string) bool { return f == "text" }); len(others) > 0 {
		return usagef("report: --format %s: %s", others[0], report.PlainNote)
	}
	fmt.Fprintln(env.Stdout, report.PlainNote)
	return report.PlainText(env.Stdout, rs)
}

// readResults reads results files; any problem is bad input. A file cut
// off mid-line is read to its last complete line, with a warning to warn.
func readResults(paths []string, warn io.Writer) ([]*benchfmt.Result, error) {
	var all []*benchfmt.Result
	for _, path := range paths {
		set, err := benchfile.ReadFile(path)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		if set.Cut != "" {
			fmt.Fprintln(warn, "warning:", set.Cut)
		}
		if len(set.Results) == 0 {
			return nil, usagef("%s holds no results", path)
		}
		all = append(all, set.Results...)
	}
	return all, nil
}

// readMerged reads results files as readResults does, every run of a
// session once: a file that repeats runs of one named before it (the same
// file twice, a copy, a copy taken while its session ran) has them counted
// once, and a line on w says so.
func readMerged(paths []string, w io.Writer) ([]*benchfmt.Result, error) {
	files := make([]benchfile.Named, len(paths))
	for i, p := range paths {
		rs, err := readResults([]string{p}, w)
		if err != nil {
			return nil, err
		}
		files[i] = benchfile.Named{Name: p, Results: rs}
	}
	rs, repeats := benchfile.Merge(files)
	for _, r := range repeats {
		fmt.Fprintf(w, "report: %s\n", r)
	}
	return rs, nil
}

// partialNote says which of the results files are of a session that did
// not finish (its journal is still beside it), with how far each got, or
// "" when all finished.
func partialNote(paths []string) string {
	var notes []string
	for i, p := range paths {
		if slices.Contains(paths[:i], p) {
			continue // named twice: said once
		}
		jp := session.JournalPath(p)
		h, recs, err := journal.Read(jp)
		if err != nil {
			continue
		}
		runs := map[[2]any]bool{}
		for _, r := range recs {
			runs[[2]any{r.Cell, r.Run}] = true
		}
		notes = append(notes, fmt.Sprintf("%s is of a session that did not finish (%d of its %d runs begun); "+
			"sqlbench run --resume %s finishes it", p, len(runs), h.Runs, jp))
	}
	return strings.Join(notes, "; ")
}
