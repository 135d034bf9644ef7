package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
)

// TestPlanFloor checks when the transport floor is planned: named with
// --db loopback, or alongside a networked database when the floor
// workloads are selected; never for SQL workloads, and its big sizes only
// at --scale 1.
func TestPlanFloor(t *testing.T) {
	for _, c := range []struct {
		name    string
		o       runOptions
		targets []string // the loopback targets planned
		ws      int      // workloads planned, or -1 to skip the check
		note    bool     // a "not planned at --scale" note on stderr
	}{
		{"loopback alone defaults to the floor", runOptions{dbs: "loopback", scale: 0.01}, []string{"tcp", "http"}, 24, true},
		{"floor at scale 1 includes the big sizes", runOptions{dbs: "loopback", workloads: "floor", scale: 1}, []string{"tcp", "http"}, 30, false},
		{"floor with mariadb", runOptions{dbs: "mariadb", workloads: "floor,classic", scale: 0.2}, []string{"tcp", "http"}, -1, true},
		{"only the floor with mariadb", runOptions{dbs: "mariadb", workloads: "floor", scale: 0.2}, []string{"tcp", "http"}, 24, true},
		{"floor with a named mariadb target", runOptions{dbs: "mariadb", targets: "mysql", workloads: "all", scale: 0.2}, []string{"tcp", "http"}, -1, true},
		{"classic with postgres: no floor", runOptions{dbs: "postgres", scale: 0.2}, nil, -1, false},
		{"a floor target named", runOptions{dbs: "sqlite,loopback", targets: "tcp", workloads: "TCPRoundTrip", scale: 0.2}, []string{"tcp"}, 2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			p, err := makePlan(&c.o, fakeEnv(&out, &errb))
			if err != nil {
				t.Fatal(err)
			}
			var planned []string
			for _, s := range p.runnable {
				if s.DB == floor.Loopback {
					planned = append(planned, s.Name)
				}
			}
			if !slices.Equal(planned, c.targets) {
				t.Errorf("loopback targets %v, want %v", planned, c.targets)
			}
			if c.ws >= 0 && len(p.workloads) != c.ws {
				t.Errorf("%d workloads planned, want %d", len(p.workloads), c.ws)
			}
			if got := strings.Contains(errb.String(), "not planned at --scale"); got != c.note {
				t.Errorf("stderr %q: note %v, want %v", errb.String(), got, c.note)
			}
			if c.o.workloads == "floor" && p.uses(bench.MariaDB) {
				t.Error("--workloads floor plans MariaDB targets that would run nothing")
			}
			for _, w := range p.workloads {
				if w.Family != "floor" && w.RunsOn(floor.Loopback) {
					t.Errorf("%s runs on loopback", w.ID())
				}
			}
		})
	}
}
