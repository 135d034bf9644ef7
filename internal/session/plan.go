package session

import (
	"slices"
	"sort"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/dsn"
	"github.com/sqlbench/sqlbench/internal/pick"
	"github.com/sqlbench/sqlbench/targets"
	_ "github.com/sqlbench/sqlbench/workloads" // registers the workload catalogue
)

// Plan is what a session will run, before anything is built or started:
// the one notion of a plan (the schedule of its runs is derived from it).
type Plan struct {
	// DBs are the databases of the session, and the kinds of target that
	// are not databases (bench.Kind: the transport floor), whether named
	// or joining a server run they bound.
	DBs []bench.DB
	// Workloads are the workloads planned at the session's scale; Later
	// are the IDs of those selected but too big for it (bench.Workload.MinScale).
	Workloads []bench.Workload
	Later     []string
	// Runnable are the targets that will run, in catalogue order.
	Runnable []targets.Spec
	// Skipped maps a target that will not run to why.
	Skipped map[string]string
	// Explicit is set when the targets were named, which makes a skip
	// count against the outcome.
	Explicit bool
	// FailedSetup is set when a runnable target could not be built or
	// opened, or its server did not start.
	FailedSetup bool
	// DSNs are the user's servers by database, from the Config or the
	// environment.
	DSNs map[bench.DB]string
}

// NewPlan resolves cfg's databases, workloads and targets, and which of the
// targets this machine can run. Unknown names are an InputError.
func NewPlan(cfg *Config, env Host) (*Plan, error) {
	p := &Plan{Skipped: map[string]string{}, DSNs: map[bench.DB]string{}}
	var err error
	if err := planInstructions(cfg, env); err != nil {
		return nil, err
	}
	for _, db := range cfg.DBs {
		if !slices.Contains(p.DBs, db) {
			p.DBs = append(p.DBs, db)
		}
	}
	if len(p.DBs) == 0 {
		p.DBs = []bench.DB{bench.SQLite}
	}
	list := cfg.Workloads
	if !pick.Includes(list) && !slices.ContainsFunc(p.DBs, bench.DB.SQL) {
		list = append(kindFamilies(p.DBs), list...) // kinds alone (--db loopback): their families, not classic
	}
	var ws []bench.Workload
	if cfg.Script == nil || len(list) > 0 {
		if ws, err = SelectWorkloads(list); err != nil {
			return nil, err
		}
	}
	if cfg.Script != nil {
		sw, err := scriptWorkload(cfg)
		if err != nil {
			return nil, err
		}
		ws = append(ws, sw)
	}
	for _, w := range ws {
		if w.PlannedAt(cfg.ScaleOf(w)) {
			p.Workloads = append(p.Workloads, w)
		} else {
			p.Later = append(p.Later, w.ID())
		}
	}
	plain, variantEls := splitVariants(cfg.Targets)
	variants, err := variantSpecs(variantEls, p.DBs, env.Dir)
	if err != nil {
		return nil, err
	}
	p.Explicit = pick.Includes(cfg.Targets)
	var specs []targets.Spec
	var excluded []string
	if len(variants) == 0 || pick.Includes(plain) {
		var names []string
		if names, excluded, err = selectTargets(plain, p.DBs); err != nil {
			return nil, err
		}
		if specs, err = targets.Select(strings.Join(names, ","), p.DBs); err != nil {
			return nil, inputf("--targets: %v", err)
		}
	}
	specs = append(specs, variants...)
	for _, k := range bench.Kinds() {
		if k.Joins(p.DBs, p.Workloads) {
			// A kind that bounds the servers (the transport floor) is
			// measured in the same run as they are.
			p.DBs = append(p.DBs, k.DB)
			joined, _ := targets.Select("", []bench.DB{k.DB})
			specs = append(specs, joined...)
		}
	}
	specs = slices.DeleteFunc(specs, func(t targets.Spec) bool { return slices.Contains(excluded, t.Name) })
	if len(specs) == 0 {
		return nil, inputf("no targets for --db %s", joinDBs(p.DBs))
	}
	for db, s := range cfg.DSNs {
		p.DSNs[db] = s
	}
	for _, db := range p.DBs {
		if v := env.Getenv(dsn.EnvVar(db)); v != "" && p.DSNs[db] == "" {
			p.DSNs[db] = v
		}
	}
	if !anyRuns(p.Workloads, specs) {
		return nil, inputf("nothing to run: none of the workloads runs on the selected databases (see sqlbench list)")
	}
	if cfg.Script != nil {
		refuseScript(p, specs)
	}
	if !p.Explicit {
		// A target none of the workloads runs on costs a runner build and,
		// for a server, a server start: --db mariadb --workloads floor
		// measures the floor only.
		specs = slices.DeleteFunc(specs, func(t targets.Spec) bool { return !anyRuns(p.Workloads, []targets.Spec{t}) })
	}
	for _, t := range specs {
		if t.JVM && cfg.Measure == MeasureInstructions {
			p.Skipped[t.Name] = "--measure instructions counts Go runners only"
			continue
		}
		if reason := Unavailable(t, env); reason != "" {
			p.Skipped[t.Name] = reason
			continue
		}
		p.Runnable = append(p.Runnable, t)
	}
	return p, nil
}

func joinDBs(dbs []bench.DB) string {
	s := make([]string, len(dbs))
	for i, db := range dbs {
		s[i] = string(db)
	}
	return strings.Join(s, ",")
}

// kindFamilies lists the families of the kinds among dbs: what a session
// of kinds only (no SQL database) runs by default.
func kindFamilies(dbs []bench.DB) []string {
	var fams []string
	for _, db := range dbs {
		if k, ok := bench.LookupKind(db); ok && !slices.Contains(fams, k.Family) {
			fams = append(fams, k.Family)
		}
	}
	return fams
}

// anyRuns reports whether some workload runs on some target's database.
func anyRuns(ws []bench.Workload, ts []targets.Spec) bool {
	for _, w := range ws {
		for _, t := range ts {
			if t.Runs(w) {
				return true
			}
		}
	}
	return false
}

// Uses reports whether any runnable target speaks db.
func (p *Plan) Uses(db bench.DB) bool {
	return slices.ContainsFunc(p.Runnable, func(t targets.Spec) bool { return t.DB == db })
}

// skip takes target name out of the plan with a reason; failure marks a
// skip that the outcome must report.
func (p *Plan) skip(name, reason string, failure bool) {
	p.Runnable = slices.DeleteFunc(p.Runnable, func(t targets.Spec) bool { return t.Name == name })
	p.Skipped[name] = reason
	if failure {
		p.FailedSetup = true
	}
}

// SkippedNames returns the skipped targets, sorted.
func (p *Plan) SkippedNames() []string {
	names := make([]string, 0, len(p.Skipped))
	for n := range p.Skipped {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SelectWorkloads resolves a workload list. Each element names a family
// ("classic", "bulk"), a workload with all its variants ("BulkInsert"), one
// variant by its ID ("BulkInsert/shape=3x8/path=copy"), "all", or is a glob
// of those ("Suite*"); a leading '-' excludes what it names ("-SuiteLarge*").
// A list of exclusions only, or an empty list, starts from DefaultWorkloads.
func SelectWorkloads(list []string) ([]bench.Workload, error) {
	all := bench.Workloads()
	entries := make([]pick.Entry, len(all))
	byID := map[string]bench.Workload{}
	for i, w := range all {
		entries[i] = pick.Entry{ID: w.ID(), Names: []string{w.Family, w.Name, w.ID()}}
		byID[w.ID()] = w
	}
	list = slices.Clone(list)
	for i, el := range list {
		if el = strings.TrimSpace(el); strings.TrimPrefix(el, "-") == "all" {
			list[i] = strings.TrimSuffix(el, "all") + "*" // every workload's family
		}
	}
	base := pick.Select([]string{DefaultWorkloads}, entries, nil).IDs
	sel := pick.Select(list, entries, base)
	if len(sel.Unmatched) > 0 {
		what := "unknown workload or family"
		if len(sel.Unmatched) > 1 || pick.IsGlob(sel.Unmatched[0]) {
			what = "no workload or family matches"
		}
		valid := append([]string{"all"}, workloadNames(all)...)
		if what == "unknown workload or family" {
			return nil, inputf("--workloads: %s %q%s", what, strings.TrimPrefix(sel.Unmatched[0], "-"),
				pick.DidYouMean(strings.TrimPrefix(sel.Unmatched[0], "-"), valid))
		}
		return nil, inputf("--workloads: %s %s (valid: %s)", what, pick.Quote(sel.Unmatched), strings.Join(valid, ", "))
	}
	if len(sel.IDs) == 0 {
		return nil, inputf("--workloads: the exclusions leave no workload")
	}
	out := make([]bench.Workload, len(sel.IDs))
	for i, id := range sel.IDs {
		out[i] = byID[id]
	}
	return out, nil
}

// selectTargets resolves a --targets list against the catalogue: the
// target names to select (every target of dbs less the exclusions when
// the list names none) and the names excluded. Globs match the targets of
// dbs only; a plain name of another database is left for targets.Select
// to refuse by name.
func selectTargets(list []string, dbs []bench.DB) (names, excluded []string, err error) {
	if len(list) == 0 {
		return nil, nil, nil
	}
	var entries []pick.Entry
	var base []string
	for _, t := range targets.All() {
		ours := slices.Contains(dbs, t.DB)
		// A protocol floor is selected by its name only, never by a pattern
		// or an exclusion list.
		entries = append(entries,
			pick.Entry{ID: t.Name, Names: []string{t.Name}, Exact: !ours || t.Floor, Aliases: t.Aliases()})
		if ours && !t.Floor {
			base = append(base, t.Name)
		}
	}
	sel := pick.Select(list, entries, base)
	switch {
	case len(sel.Unmatched) == 1 && !pick.IsGlob(strings.TrimPrefix(sel.Unmatched[0], "-")):
		name := strings.TrimPrefix(sel.Unmatched[0], "-")
		return nil, nil, inputf("--targets: unknown target %q%s", name, pick.DidYouMean(name, targets.Names()))
	case len(sel.Unmatched) > 0:
		return nil, nil, inputf("--targets: no target of --db %s matches %s (valid: %s)", joinDBs(dbs),
			pick.Quote(sel.Unmatched), strings.Join(targets.Names(), ", "))
	case len(sel.IDs) == 0:
		return nil, nil, inputf("--targets: the exclusions leave no target of --db %s", joinDBs(dbs))
	}
	return sel.IDs, sel.Excluded, nil
}

// workloadNames lists the families and then the workload names, each once.
func workloadNames(ws []bench.Workload) []string {
	var fams, names []string
	for _, w := range ws {
		if !slices.Contains(fams, w.Family) {
			fams = append(fams, w.Family)
		}
		if !slices.Contains(names, w.Name) {
			names = append(names, w.Name)
		}
	}
	return append(fams, names...)
}
