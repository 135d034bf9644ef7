package cli

import (
	"encoding/json"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/targets"
)

// catalogJSON is sqlbench list --json: the catalogue for programs.
type catalogJSON struct {
	// Targets and Workloads are what list prints (list targets: no
	// workloads).
	Targets   []targetJSON   `json:"targets,omitempty"`
	Workloads []workloadJSON `json:"workloads,omitempty"`
	// EstimateFrom is the results file the estimates come from, if any.
	EstimateFrom string `json:"estimate_from,omitempty"`
}

// targetJSON is one target: what it is and whether this machine can run
// it (Reason says why not).
type targetJSON struct {
	Name        string `json:"name"`
	DB          string `json:"db"`
	Driver      string `json:"driver"`
	API         string `json:"api"`
	Module      string `json:"module"`
	Available   bool   `json:"available"`
	Reason      string `json:"reason,omitempty"`
	Description string `json:"description"`
	// NoScripts, when set, says why the target cannot run a script
	// workload (run --script).
	NoScripts string `json:"no_scripts,omitempty"`
}

// workloadJSON is one workload: its ID (what --workloads takes), family,
// operations per run at scale 1, and what it does on each database it
// runs on.
type workloadJSON struct {
	ID           string            `json:"id"`
	Name         string            `json:"name"`
	Family       string            `json:"family"`
	Ops          int               `json:"ops"`
	Unit         string            `json:"unit"`
	Databases    []string          `json:"databases"`
	Descriptions map[string]string `json:"descriptions"`
	// EstimateSeconds is the estimated --scale 1 run time on the cells
	// of the estimate's results file, when it has the workload.
	EstimateSeconds float64 `json:"estimate_seconds,omitempty"`
}

// listJSON prints the catalogue as JSON.
func listJSON(est *estimate, env Env, f listFilter) error {
	var c catalogJSON
	for _, t := range targets.All() {
		if !f.target(t) {
			continue
		}
		reason := session.Unavailable(t, env.session())
		c.Targets = append(c.Targets,
			targetJSON{Name: t.Name, DB: string(t.DB), Driver: t.Driver, API: t.API, Module: t.Module,
				Available: reason == "", Reason: reason, Description: t.Desc,
				NoScripts: t.Refuses[targets.ScriptWorkload]})
	}
	for _, w := range bench.Workloads() {
		if !f.workload(w) {
			continue
		}
		j := workloadJSON{ID: w.ID(), Name: w.Name, Family: w.Family, Ops: w.Ops, Unit: w.Unit,
			Descriptions: map[string]string{}}
		for _, db := range f.dbs() {
			if w.RunsOn(db) {
				j.Databases = append(j.Databases, string(db))
				j.Descriptions[string(db)] = w.Describe(bench.DialectOf(db))
			}
		}
		if est != nil {
			j.EstimateSeconds = est.byID[w.ID()].Seconds()
		}
		c.Workloads = append(c.Workloads, j)
	}
	if est != nil {
		c.EstimateFrom = est.source
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}
