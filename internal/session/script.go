package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/targets"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// scriptWorkload compiles the session's script spec into its workload. A
// script that does not parse is an InputError naming its file and line.
func scriptWorkload(cfg *Config) (bench.Workload, error) {
	set, err := script.Compile(*cfg.Script)
	if err != nil {
		return bench.Workload{}, InputError{err.Error()}
	}
	return set.Workload(), nil
}

// scriptTimeout lengthens the time-out of one run to fit a run for a time.
func scriptTimeout(cfg *Config) {
	if cfg.Script != nil && cfg.Script.Time > 0 {
		cfg.Timeout = max(cfg.Timeout, cfg.Script.Time+2*time.Minute)
	}
}

// refuseScript records, in a session with a script, the targets the
// catalogue says cannot run it and that run nothing else, so that the
// session says why they do not run.
func refuseScript(p *Plan, specs []targets.Spec) {
	for _, t := range specs {
		why := t.Refuses[targets.ScriptWorkload]
		if why != "" && !anyRuns(p.Workloads, []targets.Spec{t}) {
			p.Skipped[t.Name] = "cannot run the script workload: " + why
		}
	}
}

// scriptConfig returns the results file's lines for the session's script:
// its mode, clients and time, every file with its weight and content hash,
// and every statement with its number (the stmtN units of the results) and
// place.
func scriptConfig(cfg *Config) [][2]string {
	if cfg.Script == nil {
		return nil
	}
	s := cfg.Script
	set, err := script.Compile(*s)
	if err != nil {
		return nil // the plan compiled it already
	}
	mode := string(set.Mode)
	out := [][2]string{{"script-mode", mode}, {"script-clients", fmt.Sprint(set.Clients)}}
	if s.Time > 0 {
		out = append(out, [2]string{"script-time", s.Time.String() + " per run"})
	}
	for _, src := range s.Scripts {
		out = append(out,
			[2]string{"script", fmt.Sprintf("%s@%d sha256:%s", src.Name, max(src.Weight, 1), shortHash(src.Text))})
	}
	if s.Setup != nil {
		out = append(out, [2]string{"script-setup", fmt.Sprintf("%s sha256:%s", s.Setup.Name, shortHash(s.Setup.Text))})
	}
	for i, st := range set.Statements() {
		out = append(out, [2]string{report.StmtKey(i + 1), st.Label() + " " + oneLine(st.SQL)})
	}
	return out
}

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

// checkScripts runs the script's verification pass on every runnable target
// that runs it, before anything is timed, and compares each database's
// targets with its first (in catalogue order) that passed. A target that
// differs, or fails a statement the others ran, fails its cells (added to
// out.Failed) and runs none of them. When every target of a database fails
// the pass, the script is wrong: an InputError with the first target's
// reason (it names the file and line).
func (s *Session) checkScripts(ctx context.Context) error {
	cfg, p, dbs, out := s.cfg, s.p, s.dbs, s.out
	log := func(line string) { fmt.Fprintln(s.env.Log, line) }
	w, ok := scriptOf(p)
	if !ok {
		return nil
	}
	type ref struct {
		target string
		digest *script.Digest
	}
	refs := map[bench.DB]ref{}
	failed := map[bench.DB][]string{}
	firstErr := map[bench.DB]string{}
	var order []targets.Spec
	for _, t := range p.Runnable {
		if t.Runs(w) {
			order = append(order, t)
		}
	}
	fail := func(t targets.Spec, reason string) {
		for _, n := range dbs.netsFor(t) {
			c := Cell{Workload: w, Placement: Placement{Target: t, Net: n}}
			out.Failed = append(out.Failed, report.Failure{Name: c.Name(), Reason: reason})
		}
		// The target runs its other workloads, not the script.
		if cfg.Cells == nil {
			cfg.Cells = map[string][]string{}
		}
		var ids []string
		for _, o := range p.Workloads {
			if o.ID() != w.ID() && cfg.Runs(t.Name, o.ID()) {
				ids = append(ids, o.ID())
			}
		}
		cfg.Cells[t.Name] = ids
	}
	for i, t := range order {
		// Within the session's prefix (tablePrefix), apart from the
		// cells' scopes: what a killed runner leaves is swept.
		scope := fmt.Sprintf("%scv%d", s.id, i+1)
		loc := dbs.location(t, dbs.netsFor(t)[0], t.Name+"-check")
		log(fmt.Sprintf("verify the script on %s", t.Name))
		d, err := s.checkScript(ctx, t, loc, scope, cfg.ScaleOf(w))
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if _, seen := firstErr[t.DB]; !seen {
				firstErr[t.DB] = oneLine(err.Error())
			}
			failed[t.DB] = append(failed[t.DB], t.Name)
			fail(t, "verification: "+oneLine(err.Error()))
			continue
		}
		r, have := refs[t.DB]
		if !have {
			refs[t.DB] = ref{t.Name, d}
			continue
		}
		if err := script.Compare(r.digest, d, r.target); err != nil {
			fail(t, err.Error())
		}
	}
	for db, names := range failed {
		if _, passed := refs[db]; !passed {
			return InputError{fmt.Sprintf("the script failed on every %s target (%s): %s", db,
				strings.Join(names, ", "), firstErr[db])}
		}
	}
	return nil
}

// scriptOf returns the plan's script workload, if any.
func scriptOf(p *Plan) (bench.Workload, bool) {
	i := slices.IndexFunc(p.Workloads, func(w bench.Workload) bool { return w.ID() == script.WorkloadName })
	if i < 0 {
		return bench.Workload{}, false
	}
	return p.Workloads[i], true
}

// scriptSpec returns the spec the runners are sent, or "".
func scriptSpec(cfg *Config) string {
	if cfg.Script == nil {
		return ""
	}
	return cfg.Script.Encode()
}
