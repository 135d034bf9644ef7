package session

import (
	"slices"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/dsn"
	"github.com/sqlbench/sqlbench/internal/orchestrate"
	"github.com/sqlbench/sqlbench/runner"
)

// Preview returns the schedule the plan would run, as far as the catalogue
// knows before any runner is built or server started: every runnable
// target is taken to implement every workload it can run (targets.Spec.Runs;
// a runner's hello can only drop cells, as the JDBC runner does for the
// families it has no Java twins of), over the transports cfg.Nets for a
// server sqlbench starts, or the one of the user's DSN.
func (p *Plan) Preview(cfg *Config) ([]orchestrate.Step, error) {
	every := make([]string, 0, len(p.Workloads))
	for _, w := range bench.Workloads() {
		every = append(every, w.ID())
	}
	slices.Sort(every)
	var places []orchestrate.Placement
	for _, t := range p.Runnable {
		nets := []string{""}
		if t.DB.Server() {
			nets = cfg.Nets
			if cfg.Link != nil {
				nets = []string{"tcp"} // the link carries TCP only (checkLink)
			}
			if d := p.DSNs[t.DB]; d != "" {
				e, err := dsn.Parse(t.DB, d)
				if err != nil {
					return nil, InputError{err.Error()}
				}
				nets = []string{e.Net}
			}
		}
		hello := runner.Hello{Protocol: runner.ProtocolVersion, Targets: map[string][]bench.Cap{t.Name: t.Caps}, Workloads: every}
		for _, n := range nets {
			if t.RunsOver(n) {
				places = append(places, orchestrate.Placement{Target: t, Net: n, Runner: hello})
			}
		}
	}
	return orchestrate.Schedule(p.Workloads, places, cfg.Count, cfg.Slices), nil
}
