package cli

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/orchestrate"
)

// TestPlannedCellsGolden pins the cells a representative run plans: every
// database, every workload, every target this machine could build, both
// transports. A change to planning that changes what runs shows here.
func TestPlannedCellsGolden(t *testing.T) {
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.LookPath = func(name string) (string, error) {
		switch name {
		case "go", "gcc", "java", "mvn":
			return "/usr/bin/" + name, nil
		}
		return "", exec.ErrNotFound
	}
	o := runOptions{dbs: "sqlite,mariadb,postgres", workloads: "all", scale: 0.2}
	p, err := makePlan(&o, env)
	if err != nil {
		t.Fatal(err)
	}
	var places []orchestrate.Placement
	for _, tg := range p.runnable {
		nets := []string{""}
		if tg.DB.Server() {
			nets = []string{"tcp", "unix"}
		}
		for _, n := range nets {
			if tg.RunsOver(n) {
				places = append(places, orchestrate.Placement{Target: tg, Net: n})
			}
		}
	}
	var b strings.Builder
	for _, st := range orchestrate.Schedule(p.workloads, places, 1, 1) {
		fmt.Fprintln(&b, st.Cell.Name())
	}
	golden(t, "planned-cells.golden", []byte(b.String()))
}
