package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/report"
)

// estimate is what a --scale 1 run would take, extrapolated from the timed
// runs of a results file measured on this machine.
type estimate struct {
	// source is the results file.
	source string
	// byID is the estimated time of each workload (by ID) on the cells the
	// file has for it; cells counts those cells.
	byID  map[string]time.Duration
	cells map[string]int
	// total sums byID.
	total time.Duration
	// perOp is each cell's median ns/op there, by cell name, as at scale 1
	// for workloads whose tables grow with the scale (ScaledData).
	perOp map[string]float64
}

// estimateCount and estimateWarmup are the run shape an estimate is for:
// the defaults of sqlbench run.
const (
	estimateCount  = session.DefaultCount
	estimateWarmup = session.DefaultWarmup
)

// targetKeys are the keys of a result name that name its cell's target and
// transport; the keys after them are the workload's own.
var targetKeys = []string{"db", "driver", "api", "net"}

// newestResults returns the newest results/sqlbench-*.txt under dir, or ""
// when there is none.
func newestResults(dir string) string {
	paths, _ := filepath.Glob(filepath.Join(dir, "results", "sqlbench-*.txt"))
	newest, at := "", time.Time{}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.ModTime().After(at) {
			newest, at = p, fi.ModTime()
		}
	}
	return newest
}

// estimateFrom extrapolates each workload's --scale 1 run time from the
// results in path: per cell, the median ns/op at the scale the file ran it
// at (divided by that scale for workloads whose tables grow with it), times
// the operations of a run at scale 1, times estimateCount runs with
// estimateWarmup warm-up (none for a workload whose published program had
// none, as a session runs it by default). Set-up (filling the tables a query reads) is not
// timed by a run and not counted.
func estimateFrom(path string) (*estimate, error) {
	set, err := benchfile.ReadFile(path)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	defaults := session.Config{Warmup: estimateWarmup}
	est := &estimate{source: path, byID: map[string]time.Duration{}, cells: map[string]int{}, perOp: map[string]float64{}}
	for _, s := range report.Summarize(set.Results) {
		w, ok := bench.LookupWorkload(workloadID(s))
		if !ok || !(s.NsPerOp.Center > 0) {
			continue
		}
		scale, err := scaleOfResult(s, w.Name)
		if err != nil {
			return nil, usageError{fmt.Sprintf("%s: %v", path, err)}
		}
		perOp := s.NsPerOp.Center
		if w.ScaledData {
			perOp /= scale
		}
		est.perOp[s.Name] = perOp
		runs := float64(estimateCount) * (1 + defaults.WarmupOf(w))
		d := time.Duration(perOp * float64(w.OpsAt(1)) * runs)
		est.byID[w.ID()] += d
		est.cells[w.ID()]++
		est.total += d
	}
	if len(est.byID) == 0 {
		return nil, usageError{fmt.Sprintf("%s: no results of workloads in this catalogue to estimate from", path)}
	}
	return est, nil
}

// workloadID returns the catalogue ID of a result's workload: its name and
// the keys after the target's.
func workloadID(s report.Summary) string {
	return strings.Join(append([]string{s.Workload}, report.NameKeys(s.Name, targetKeys...)...), "/")
}

// scaleOfResult returns the scale a result ran at: its workload's entry in
// the smoke-scales configuration line, else the scale line.
func scaleOfResult(s report.Summary, name string) (float64, error) {
	var scale, smoke string
	for _, c := range s.Config {
		switch c.Key {
		case "scale":
			scale = c.Value
		case "smoke-scales":
			smoke = c.Value
		}
	}
	for _, kv := range strings.Fields(smoke) {
		if n, v, ok := strings.Cut(kv, "="); ok && n == name {
			scale = v
		}
	}
	if scale == "" {
		return 1, nil // a plain go test -bench file: the sizes as given
	}
	f, err := strconv.ParseFloat(scale, 64)
	if err != nil || !(f > 0) {
		return 0, fmt.Errorf("scale %q of %s is not a positive number", scale, s.Name)
	}
	return f, nil
}

// formatEstimate rounds d for a table: "45s", "12m", "3h10m".
func formatEstimate(d time.Duration) string {
	switch {
	case d < time.Second:
		return "<1s"
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	default:
		d = d.Round(10 * time.Minute)
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		if m == 0 {
			return fmt.Sprintf("%dh", h)
		}
		return fmt.Sprintf("%dh%dm", h, m)
	}
}
