package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
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
	// perStep is what one step (one slice of one run of one cell) took
	// there beyond its operations: the request and its answer, the heap
	// collected before the slice, a cell's set-up on its first step, the
	// machine probes of each pass, spread over the steps; setUp is the time
	// before the first run (servers started, runners found in the cache,
	// each runner's hello), less the file's runner builds (runner-build):
	// a dry run counts those only where they would happen (buildTerm). Both are zero (and overhead false)
	// for a file without the began, started and finished lines.
	perStep, setUp time.Duration
	overhead       bool
	// sessions counts the results files perStep and setUp are the medians
	// of (estimateFor); 1 for estimateFrom's own.
	sessions int
	// instructions says the file's session counted instructions (its
	// measure line): its runs ran under Valgrind, 30-340 times as long as
	// without (docs/methodology.md), so it estimates only such a session.
	instructions bool
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
	if paths := resultsByAge(dir); len(paths) > 0 {
		return paths[0]
	}
	return ""
}

// resultsByAge returns the results/sqlbench-*.txt under dir, newest first.
func resultsByAge(dir string) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, "results", "sqlbench-*.txt"))
	at := map[string]time.Time{}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			at[p] = fi.ModTime()
		}
	}
	paths = slices.DeleteFunc(paths, func(p string) bool { _, ok := at[p]; return !ok })
	slices.SortStableFunc(paths, func(a, b string) int { return at[b].Compare(at[a]) })
	return paths
}

// estimateFor returns the estimate, from the results files under dir, that
// has the most of cells (by name; a file's cell without GOMAXPROCS counts
// for the cell with it): the newest that has them all, else the one with
// the most, the newer on a tie; of the newest maxEstimateFiles files, and
// nil when none has any. A file that cannot be read is passed over. Its
// overhead (per step, start-up) is the median of those of the newest
// maxOverheadFiles files that have every cell and record it: one session's
// is as much the machine's load at the time as the plan's. Only files of
// the plan's measure count (instructions: sessions under Valgrind).
func estimateFor(dir string, cells []session.Cell, instructions bool) *estimate {
	var best *estimate
	bestHas := 0
	var perStep, setUp []time.Duration
	for i, path := range resultsByAge(dir) {
		if i == maxEstimateFiles || len(perStep) == maxOverheadFiles {
			break
		}
		est, err := estimateFrom(path)
		if err != nil || est.instructions != instructions {
			continue
		}
		has := 0
		for _, c := range cells {
			if _, ok := est.perOpOf(c); ok {
				has++
			}
		}
		if has > bestHas {
			best, bestHas = est, has
		}
		if has == len(cells) && est.overhead {
			perStep, setUp = append(perStep, est.perStep), append(setUp, est.setUp)
		}
		if bestHas == len(cells) && !best.overhead {
			break // the newest with every cell has no overhead lines: nor have older ones
		}
	}
	if best != nil && bestHas == len(cells) && len(perStep) > 0 {
		best.perStep, best.setUp, best.overhead, best.sessions = median(perStep), median(setUp), true, len(perStep)
	}
	return best
}

// median returns the median of ds: the middle one, or the mean of the two
// middle ones.
func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	n := len(ds)
	return (ds[(n-1)/2] + ds[n/2]) / 2
}

// maxOverheadFiles bounds the sessions whose overhead an estimate takes the
// median of.
const maxOverheadFiles = 5

// maxEstimateFiles bounds the results files a dry run reads for its
// estimate.
const maxEstimateFiles = 20

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
	var h benchfile.Header
	if len(set.Results) > 0 {
		if h, err = benchfile.ParseHeader(set.Results[0].Config); err != nil {
			return nil, usageError{fmt.Sprintf("%s: %v", path, err)}
		}
	}
	est := &estimate{source: path, byID: map[string]time.Duration{}, cells: map[string]int{},
		perOp: map[string]float64{}}
	if len(set.Results) > 0 {
		for _, c := range set.Results[0].Config {
			if c.Key == "measure" && strings.HasPrefix(string(c.Value), session.MeasureInstructions) {
				est.instructions = true
			}
		}
	}
	var fileTimed time.Duration // the operations of the file's own runs, warm-up included
	fileSteps := 0
	type replayed struct {
		name string
		w    bench.Workload
	}
	var withReplay []replayed // the file's cells that ran after a replay of earlier tests
	replayedFile := len(set.Results) > 0 && fileReplayed(set.Results[0].Config)
	for _, s := range report.Summarize(set.Results) {
		w, ok := bench.LookupWorkload(workloadID(s))
		if !ok || !(s.NsPerOp.Center > 0) {
			continue
		}
		scale := h.ScaleOf(w.Name)
		perOp := s.NsPerOp.Center
		if h.Count > 0 {
			fileWarmup := session.Config{Warmup: h.Warmup, WarmupAll: h.WarmupAll}
			fileTimed += time.Duration(
				perOp * float64(w.OpsAt(scale)) * float64(h.Count) * (1 + fileWarmup.WarmupOf(w)))
			fileSteps += h.Count * stepsPerRun(w, scale, h.Slices)
			if len(w.Follows) > 0 && replayedFile {
				withReplay = append(withReplay, replayed{s.Name, w})
			}
		}
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
	for _, c := range withReplay {
		// What the file's runs spent replaying is not a step's overhead.
		r, ok := replayOf(c.w, func(p bench.Workload) (float64, bool) {
			name, ok := siblingName(c.name, c.w, p)
			ns, found := est.perOp[name]
			return ns, ok && found
		}, func(p bench.Workload) float64 { return h.ScaleOf(p.Name) })
		if ok {
			fileTimed += time.Duration(h.Count) * r
		}
	}
	if len(est.byID) == 0 {
		return nil, usageError{fmt.Sprintf("%s: no results of workloads in this catalogue to estimate from", path)}
	}
	if setUp, runs, ok := h.Elapsed(); ok && fileSteps > 0 {
		if built, ok := benchfile.RunnerBuild(set.Results[0].Config); ok {
			setUp = max(0, setUp-built) // a one-time build is counted only where it would happen (buildTerm)
		}
		est.setUp, est.perStep, est.overhead, est.sessions = setUp, max(0, runs-fileTimed)/time.Duration(fileSteps),
			true, 1
	}
	return est, nil
}

// stepsPerRun returns the steps a run of w takes at scale in a session of
// slices slices: one for a workload that runs whole, else a slice each, as
// many as it has operations at most (Session.runStep).
func stepsPerRun(w bench.Workload, scale float64, slices int) int {
	if w.Whole {
		return 1
	}
	return min(max(slices, 1), w.OpsAt(scale))
}

// workloadID returns the catalogue ID of a result's workload: its name and
// the keys after the target's.
func workloadID(s report.Summary) string {
	return strings.Join(append([]string{s.Workload}, report.NameKeys(s.Name, targetKeys...)...), "/")
}

// formatEstimate rounds d for a table: "45s", "1m13s", "12m", "3h10m".
func formatEstimate(d time.Duration) string {
	switch {
	case d < time.Second:
		return "<1s"
	case d < 10*time.Minute:
		return d.Round(time.Second).String() // 45s, 1m13s: a dry run's ±30% needs the seconds
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

// fileReplayed reports whether a results file's session replayed the tests
// its cells' published programs ran before them (its preceding-tests line).
func fileReplayed(cfg []benchfmt.Config) bool {
	for _, c := range cfg {
		if c.Key == session.PrecedingKey {
			return strings.HasPrefix(string(c.Value), session.PrecedingReplay)
		}
	}
	return false
}

// siblingName returns the name of the cell of workload p on the target of
// name, a cell of workload w (the same net and GOMAXPROCS): name with w's
// name and keys in place of p's.
func siblingName(name string, w, p bench.Workload) (string, bool) {
	rest, ok := strings.CutPrefix(name, w.Name+"/")
	i := strings.LastIndex(rest, "/"+w.Keys)
	if !ok || w.Keys == "" || p.Keys == "" || i < 0 {
		return "", false
	}
	return p.Name + "/" + rest[:i] + "/" + p.Keys + rest[i+1+len(w.Keys):], true
}
