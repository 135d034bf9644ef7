package session

import (
	"io"
	"slices"
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
		cfg     Config
		targets []string // the loopback targets planned
		ws      int      // workloads planned, or -1 to skip the check
		note    bool     // some selected workloads are left for a larger scale
	}{
		{"loopback alone defaults to the floor", Config{DBs: []bench.DB{"loopback"}, Scale: 0.01},
			[]string{"tcp", "http"}, 26, true},
		{"floor at scale 1 includes the big sizes", Config{DBs: []bench.DB{"loopback"}, Workloads: []string{"floor"},
			Scale: 1}, []string{"tcp", "http"}, 32, false},
		{"floor with mariadb", Config{DBs: []bench.DB{"mariadb"}, Workloads: []string{"floor", "classic"}, Scale: 0.2},
			[]string{"tcp", "http"}, -1, true},
		{"only the floor with mariadb", Config{DBs: []bench.DB{"mariadb"}, Workloads: []string{"floor"}, Scale: 0.2},
			[]string{"tcp", "http"}, 26, true},
		{"floor with a named mariadb target", Config{DBs: []bench.DB{"mariadb"}, Targets: []string{"mysql"},
			Workloads: []string{"all"}, Scale: 0.2}, []string{"tcp", "http"}, -1, true},
		{"classic with postgres: no floor", Config{DBs: []bench.DB{"postgres"}, Scale: 0.2}, nil, -1, false},
		{"a floor target named", Config{DBs: []bench.DB{"sqlite", "loopback"}, Targets: []string{"tcp"},
			Workloads: []string{"TCPRoundTrip"}, Scale: 0.2}, []string{"tcp"}, 2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := NewPlan(&c.cfg, fakeEnv(io.Discard))
			if err != nil {
				t.Fatal(err)
			}
			var planned []string
			for _, s := range p.Runnable {
				if s.DB == floor.Loopback {
					planned = append(planned, s.Name)
				}
			}
			if !slices.Equal(planned, c.targets) {
				t.Errorf("loopback targets %v, want %v", planned, c.targets)
			}
			if c.ws >= 0 && len(p.Workloads) != c.ws {
				t.Errorf("%d workloads planned, want %d", len(p.Workloads), c.ws)
			}
			if got := len(p.Later) > 0; got != c.note {
				t.Errorf("workloads left for a larger scale: %v; want some: %v", p.Later, c.note)
			}
			if slices.Equal(c.cfg.Workloads, []string{"floor"}) && p.Uses(bench.MariaDB) {
				t.Error("--workloads floor plans MariaDB targets that would run nothing")
			}
			for _, w := range p.Workloads {
				if w.Family != "floor" && w.RunsOn(floor.Loopback) {
					t.Errorf("%s runs on loopback", w.ID())
				}
			}
		})
	}
}
