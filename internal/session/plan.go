package session

import (
	"slices"
	"sort"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/dsn"
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
func NewPlan(cfg *Config, env Env) (*Plan, error) {
	p := &Plan{Skipped: map[string]string{}, Explicit: len(cfg.Targets) > 0, DSNs: map[bench.DB]string{}}
	for _, db := range cfg.DBs {
		if !slices.Contains(p.DBs, db) {
			p.DBs = append(p.DBs, db)
		}
	}
	if len(p.DBs) == 0 {
		p.DBs = []bench.DB{bench.SQLite}
	}
	list := cfg.Workloads
	if len(list) == 0 && !slices.ContainsFunc(p.DBs, bench.DB.SQL) {
		list = kindFamilies(p.DBs) // kinds alone (--db loopback): their families, not classic
	}
	ws, err := SelectWorkloads(list)
	if err != nil {
		return nil, err
	}
	for _, w := range ws {
		if w.PlannedAt(cfg.ScaleOf(w)) {
			p.Workloads = append(p.Workloads, w)
		} else {
			p.Later = append(p.Later, w.ID())
		}
	}
	specs, err := targets.Select(strings.Join(cfg.Targets, ","), p.DBs)
	if err != nil {
		return nil, inputf("--targets: %v", err)
	}
	for _, k := range bench.Kinds() {
		if k.Joins(p.DBs, p.Workloads) {
			// A kind that bounds the servers (the transport floor) is
			// measured in the same run as they are.
			p.DBs = append(p.DBs, k.DB)
			joined, _ := targets.Select("", []bench.DB{k.DB})
			specs = append(specs, joined...)
		}
	}
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
	if !p.Explicit {
		// A target none of the workloads runs on costs a runner build and,
		// for a server, a server start: --db mariadb --workloads floor
		// measures the floor only.
		specs = slices.DeleteFunc(specs, func(t targets.Spec) bool { return !anyRuns(p.Workloads, []targets.Spec{t}) })
	}
	for _, t := range specs {
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
// variant by its ID ("BulkInsert/shape=3x8/path=copy"), or "all"; an empty
// list means DefaultWorkloads.
func SelectWorkloads(list []string) ([]bench.Workload, error) {
	all := bench.Workloads()
	if len(list) == 0 {
		list = []string{DefaultWorkloads}
	}
	var out []bench.Workload
	seen := map[string]bool{}
	for _, name := range list {
		name = strings.TrimSpace(name)
		found := false
		for _, w := range all {
			if name == "all" || w.Family == name || w.Name == name || w.ID() == name {
				found = true
				if !seen[w.ID()] {
					seen[w.ID()] = true
					out = append(out, w)
				}
			}
		}
		if !found {
			return nil, inputf("--workloads: unknown workload or family %q (valid: all, %s)", name, strings.Join(workloadNames(all), ", "))
		}
	}
	return out, nil
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
