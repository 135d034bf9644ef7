package history

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/changepoint"
)

// Filter picks runs; its zero value picks every one.
type Filter struct {
	// Target is a driver as the cells name it ("mattn", "mattn@v1.14.22")
	// or a glob of one (path.Match); a name without '@' also takes its
	// versions and variants ("mattn" takes "mattn@v1.14.22").
	Target string
	// Workload is a workload's name or a glob of it ("Simple*").
	Workload string
}

// Check returns an error naming a glob of f that does not parse.
func (f Filter) Check() error {
	for _, g := range []struct{ flag, glob string }{{"--target", f.Target}, {"--workload", f.Workload}} {
		if _, err := path.Match(g.glob, ""); err != nil {
			return fmt.Errorf("%s %q: %w", g.flag, g.glob, err)
		}
	}
	return nil
}

func (f Filter) takes(workload, driver string) bool {
	if f.Workload != "" {
		if ok, _ := path.Match(f.Workload, workload); !ok {
			return false
		}
	}
	if f.Target == "" {
		return true
	}
	if ok, _ := path.Match(f.Target, driver); ok {
		return true
	}
	base, _, _ := strings.Cut(driver, "@")
	base, _, _ = strings.Cut(base, "+")
	return !strings.Contains(f.Target, "@") && f.Target == base
}

// run is a stored run with its session.
type run struct {
	session, source     string
	began               time.Time
	seq                 int
	machine, settings   string // text ids
	config              string // text id
	name, workload      string
	driver, target, env string
	iters               int
	values              []benchfmt.Value
}

// runs returns the runs f picks, by session (in order of their start) and
// line.
func (s *Store) runs(ctx context.Context, f Filter) ([]run, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.id, s.source, s.began, r.seq, r.machine, r.settings, r.config,
		r.name, r.workload, r.driver, r.target, r.env, r.iters, r.vals
		FROM history_runs r JOIN history_sessions s ON s.id = r.session
		ORDER BY s.began, s.id, r.seq`)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	defer rows.Close()
	var out []run
	for rows.Next() {
		var r run
		var began, vals string
		if err := rows.Scan(&r.session, &r.source, &began, &r.seq, &r.machine, &r.settings, &r.config, &r.name,
			&r.workload, &r.driver, &r.target, &r.env, &r.iters, &vals); err != nil {
			return nil, fmt.Errorf("read history: %w", err)
		}
		if !f.takes(r.workload, r.driver) {
			continue
		}
		if r.began, err = time.Parse(time.RFC3339, began); err != nil {
			return nil, fmt.Errorf("read history: session %s: began %q: %w", r.session, began, err)
		}
		if r.values, err = parseValues(vals); err != nil {
			return nil, fmt.Errorf("read history: session %s: %w", r.session, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	return out, nil
}

// texts sets the value of each id of ids to the body of its text.
func (s *Store) texts(ctx context.Context, ids map[string]string) error {
	for id := range ids {
		var body string
		if err := s.db.QueryRowContext(ctx, s.q(`SELECT body FROM history_texts WHERE id = ?`), id).
			Scan(&body); err != nil {
			return fmt.Errorf("read history: text %s: %w", id, err)
		}
		ids[id] = body
	}
	return nil
}

// Sessions returns how many sessions the history holds.
func (s *Store) Sessions(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM history_sessions`).Scan(&n); err != nil {
		return 0, fmt.Errorf("read history: %w", err)
	}
	return n, nil
}

// Series is one cell's measure across sessions, on one machine under one
// set of settings.
type Series struct {
	// Machine and Settings are their "key: value" lines.
	Machine, Settings string
	// SettingsID is a short id of Settings, to tell series apart.
	SettingsID string
	// Name is the cell, Unit the measure.
	Name, Unit string
	// Points are the sessions, in order of their start.
	Points []Point
	// Changes are the change points found in the points' values.
	Changes []changepoint.Point
}

// Point is one session's measure of a cell: the median of its runs.
type Point struct {
	Session string
	Began   time.Time
	Value   float64
	Runs    int
	// Target is the driver's module line(s); Env the Go and kernel
	// versions.
	Target, Env string
}

// Series returns the series of unit ("ns/op") of the cells f picks, each
// with its change points (o), ordered by cell, machine and settings.
func (s *Store) Series(ctx context.Context, f Filter, unit string, o changepoint.Options) ([]Series, error) {
	runs, err := s.runs(ctx, f)
	if err != nil {
		return nil, err
	}
	type key struct{ machine, settings, name string }
	type acc struct {
		series *Series
		last   string
		vals   []float64
	}
	by := map[key]*acc{}
	var order []key
	flush := func(a *acc) {
		if len(a.vals) > 0 {
			p := &a.series.Points[len(a.series.Points)-1]
			p.Value, p.Runs, a.vals = median(a.vals), len(a.vals), nil
		}
	}
	for _, r := range runs {
		v, ok := valueOf(r.values, unit)
		if !ok {
			continue
		}
		k := key{r.machine, r.settings, r.name}
		a := by[k]
		if a == nil {
			a = &acc{series: &Series{Machine: r.machine, Settings: r.settings, SettingsID: r.settings[:8], Name: r.name,
				Unit: unit}}
			by[k] = a
			order = append(order, k)
		}
		if a.last != r.session {
			flush(a)
			a.last = r.session
			a.series.Points = append(a.series.Points,
				Point{Session: r.session, Began: r.began, Target: r.target, Env: r.env})
		}
		a.vals = append(a.vals, v)
	}
	texts := map[string]string{}
	for _, k := range order {
		flush(by[k])
		texts[k.machine], texts[k.settings] = "", ""
	}
	if err := s.texts(ctx, texts); err != nil {
		return nil, err
	}
	out := make([]Series, 0, len(order))
	for _, k := range order {
		sr := *by[k].series
		sr.Machine, sr.Settings = texts[k.machine], texts[k.settings]
		xs := make([]float64, len(sr.Points))
		for i, p := range sr.Points {
			xs[i] = p.Value
		}
		o.Seed = seedOf(k.machine + k.settings + k.name + unit)
		sr.Changes = changepoint.Detect(xs, o)
		out = append(out, sr)
	}
	slices.SortStableFunc(out, func(a, b Series) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Machine, b.Machine),
			cmp.Compare(a.Settings, b.Settings))
	})
	return out, nil
}

// seedOf is a series' seed for its permutations: the same series gives
// the same answer every time.
func seedOf(s string) uint64 {
	var h uint64 = 14695981039346656037 // FNV-1a
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

func valueOf(vs []benchfmt.Value, unit string) (float64, bool) {
	for _, v := range vs {
		if v.Unit == unit {
			return v.Value, true
		}
	}
	return 0, false
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Export writes the runs f picks in the Go benchmark format, as sqlbench
// writes results files: the units' metadata, then each session's runs,
// its facts as comment lines before them (benchfile). benchstat reads it.
func (s *Store) Export(ctx context.Context, f Filter, w io.Writer) (sessions int, err error) {
	runs, err := s.runs(ctx, f)
	if err != nil {
		return 0, err
	}
	configs := map[string]string{}
	for _, r := range runs {
		configs[r.config] = ""
	}
	if err := s.texts(ctx, configs); err != nil {
		return 0, err
	}
	bw := benchfmt.NewWriter(w)
	for _, u := range benchfile.Units() {
		m := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.Unit, Key: "better"},
			OrigUnit: u.Unit, Value: u.Better}
		if err := bw.Write(m); err != nil {
			return 0, fmt.Errorf("export: %w", err)
		}
	}
	last := ""
	for _, r := range runs {
		var cfg []benchfmt.Config
		var facts strings.Builder
		for _, c := range parseConfig(configs[r.config]) {
			if benchfile.IsSessionFact(c.Key) {
				fmt.Fprintf(&facts, "# %s: %s\n", c.Key, c.Value)
			} else {
				cfg = append(cfg, c)
			}
		}
		if r.session != last {
			last = r.session
			sessions++
			if _, err := io.WriteString(w, "\n"+facts.String()); err != nil {
				return 0, fmt.Errorf("export: %w", err)
			}
		}
		res := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(r.name), Iters: r.iters, Values: r.values}
		if err := bw.Write(res); err != nil {
			return 0, fmt.Errorf("export: %w", err)
		}
	}
	return sessions, nil
}
