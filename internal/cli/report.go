package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/report"
)

// reportFormats are the formats of sqlbench report, with their file
// extensions; text goes to stdout.
func reportFormats() map[string]string {
	return map[string]string{"text": "", "markdown": ".md", "html": ".html", "csv": ".csv", "json": ".json", "png": ".png"}
}

// reportCmd writes the report of one or more results files in the formats
// asked for: the text tables on stdout, the others into files named after
// -o (default: the first results file without its extension).
func reportCmd(args []string, env Env) error {
	fs := newFlags("report")
	format := fs.String("format", "text", "comma-separated formats: text (stdout), markdown, html, csv, json, png (one file per chart)")
	out := fs.String("o", "", "output path prefix: writes PREFIX.md, PREFIX.html, PREFIX.csv, PREFIX.json, PREFIX-<chart>.png (default: the first results file without its extension); - writes the one format asked for to stdout")
	paths, err := parseWithFiles(fs, args, env)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usagef("report: name at least one results file")
	}
	var formats []string
	for _, f := range strings.Split(*format, ",") {
		f = strings.TrimSpace(f)
		if _, ok := reportFormats()[f]; !ok {
			return usagef("report: --format: unknown format %q (valid: text, markdown, html, csv, json, png)", f)
		}
		if !slices.Contains(formats, f) {
			formats = append(formats, f)
		}
	}
	rs, err := readResults(paths)
	if err != nil {
		return err
	}
	r := report.New(rs, nil, workloadInfo)
	r.Sources = paths
	if slices.Contains(formats, "text") {
		fmt.Fprintln(env.Stdout)
		if err := report.Text(env.Stdout, report.Summarize(rs), nil); err != nil {
			return err
		}
		formats = slices.DeleteFunc(formats, func(f string) bool { return f == "text" })
	}
	if len(formats) == 0 {
		return nil
	}
	if *out == "-" {
		if len(formats) != 1 || formats[0] == "png" {
			return usagef("report: -o - takes exactly one of markdown, html, csv, json")
		}
		return writeFormat(env.Stdout, r, formats[0])
	}
	prefix := *out
	if prefix == "" {
		prefix = strings.TrimSuffix(paths[0], filepath.Ext(paths[0]))
	}
	if !filepath.IsAbs(prefix) && env.Dir != "" {
		prefix = filepath.Join(env.Dir, prefix)
	}
	written, err := writeReports(r, prefix, formats)
	for _, p := range written {
		fmt.Fprintln(env.Stdout, "wrote", p)
	}
	return err
}

// workloadInfo tells the report the family and unit of the workloads
// registered in this binary, by benchmark name (keyed siblings share them).
func workloadInfo(name string) (report.WorkloadInfo, bool) {
	for i, w := range bench.Workloads() {
		if w.Name == name {
			return report.WorkloadInfo{Family: w.Family, Unit: w.Unit, Spread: w.Spread, Rank: i}, true
		}
	}
	return report.WorkloadInfo{}, false
}

// readResults reads results files; any problem is bad input.
func readResults(paths []string) ([]*benchfmt.Result, error) {
	var all []*benchfmt.Result
	for _, path := range paths {
		set, err := benchfile.ReadFile(path)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		if len(set.Results) == 0 {
			return nil, usagef("%s holds no results", path)
		}
		all = append(all, set.Results...)
	}
	return all, nil
}

// writeFormat writes the report in one file format to w.
func writeFormat(w io.Writer, r *report.Report, format string) error {
	switch format {
	case "markdown":
		return report.Markdown(w, r)
	case "html":
		return report.HTML(w, r)
	case "csv":
		return report.CSV(w, r)
	case "json":
		return report.JSON(w, r)
	}
	return fmt.Errorf("no writer for format %q", format)
}

// writeReports writes the report into files named after prefix, one per
// format (one per chart for png), and returns their paths. A file that
// cannot be written is bad input.
func writeReports(r *report.Report, prefix string, formats []string) ([]string, error) {
	var written []string
	for _, f := range formats {
		if f == "png" {
			for _, sec := range r.Sections() {
				for _, c := range sec.Charts {
					img, err := c.PNG()
					if err != nil {
						return written, err
					}
					path := prefix + "-" + c.ID + ".png"
					if err := os.WriteFile(path, img, 0o644); err != nil {
						return written, usagef("report file %s: %v", path, pathErr(err))
					}
					written = append(written, path)
				}
			}
			continue
		}
		var buf bytes.Buffer
		if err := writeFormat(&buf, r, f); err != nil {
			return written, err
		}
		path := prefix + reportFormats()[f]
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return written, usagef("report file %s: %v", path, pathErr(err))
		}
		written = append(written, path)
	}
	return written, nil
}

// pathErr returns the cause of a file error without the path, which the
// caller names.
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
