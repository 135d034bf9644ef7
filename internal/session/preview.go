package session

import (
	"slices"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/dsn"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// Preview returns the schedule the plan would run, as far as the catalogue
// knows before any runner is built or server started: every runnable
// target is taken to implement every workload it can run (targets.Spec.Runs;
// a runner's hello can only drop cells, as the JDBC runner does for the
// families it has no Java twins of), over the transports cfg.Nets for a
// server sqlbench starts, or the one of the user's DSN, once per --cpu value
// for a Go target (as the session's schedule), limited to Config.Cells.
func (p *Plan) Preview(cfg *Config) ([]Step, error) {
	every := make([]string, 0, len(p.Workloads))
	for _, w := range bench.Workloads() {
		every = append(every, w.ID())
	}
	every = append(every, script.WorkloadName) // every Go runner builds it from its request
	slices.Sort(every)
	var places []Placement
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
		hello := protocol.Hello{Protocol: protocol.ProtocolVersion, Targets: map[string][]bench.Cap{t.Opener(): t.Caps},
			Workloads: every}
		for _, n := range nets {
			if !t.RunsOver(n) {
				continue
			}
			for _, cpu := range cpusFor(cfg, t) {
				places = append(places, Placement{Target: t, Net: n, Runner: hello, CPU: cpu})
			}
		}
	}
	return slices.DeleteFunc(Schedule(p.Workloads, places, cfg.Count, cfg.Slices), func(st Step) bool {
		return !cfg.Runs(st.Cell.Target.Name, st.Cell.Workload.ID())
	}), nil
}
