package targets_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/testenv"
	"github.com/sqlbench/sqlbench/targets"
	_ "github.com/sqlbench/sqlbench/workloads" // the Go workload catalogue the runners link
)

// javaTwinExclusions lists, by ID, the Go workloads of a family the JDBC
// runner implements that the JDBC runner deliberately does not implement,
// each with the reason. TestEveryGoWorkloadOfAJDBCFamilyHasAJavaTwin fails
// for any other such workload without a Java twin, and for an entry here
// that no longer excuses anything.
var javaTwinExclusions = map[string]string{
	"BulkInsert/shape=16x32/path=copy/args=bytes": javaCopyBinds,
	"BulkInsert/shape=3x8/path=copy/args=bytes":   javaCopyBinds,
}

// javaCopyBinds is why the JDBC runner has no args=bytes COPY.
const javaCopyBinds = "pgjdbc's COPY reads a text stream: no argument is bound, so the Go drivers' question (what " +
	"lib/pq and pgx send for a []byte) has no JDBC counterpart; the JDBC COPY is the args=string twin"

// runners builds, starts and says hello to each group's runner once per test
// binary: the Go groups with the local toolchain (the cgo ones take a minute
// the first time), the JDBC runner with Maven, cached where the end-to-end
// tests of internal/cli cache them.
var runners struct {
	sync.Mutex
	conns  map[string]launcher.Conn
	hellos map[string]protocol.Hello
}

// declaration returns the hello of the runner of group, skipping the test
// where this machine cannot build it.
func declaration(t *testing.T, group string) protocol.Hello {
	t.Helper()
	if testing.Short() {
		t.Skip("builds every runner: not in -short")
	}
	var spec targets.Spec
	for _, s := range targets.All() {
		if s.Group == group && s.Unobtainable == "" {
			spec = s
		}
	}
	switch {
	case spec.Name == "":
		t.Fatalf("no obtainable catalogue target is in group %s", group)
	case spec.JVM:
		need(t, "java", "mvn")
	case spec.Cgo:
		need(t, "go", "gcc")
	default:
		need(t, "go")
	}
	runners.Lock()
	defer runners.Unlock()
	if h, ok := runners.hellos[group]; ok {
		return h
	}
	if runners.conns == nil {
		runners.conns, runners.hellos = map[string]launcher.Conn{}, map[string]protocol.Hello{}
	}
	src, err := launcher.FindSource(".")
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(os.TempDir(), "sqlbench-test-runners")
	b := &launcher.Builder{Src: src, Cache: cache, Log: os.Stderr}
	jb := &launcher.JarBuilder{Src: src, Cache: cache, Log: os.Stderr}
	ctx := context.Background()
	cmd, err := groupCommand(ctx, b, jb, group)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := launcher.Start(cmd[0], cmd[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	runners.conns[group] = conn
	reply, err := conn.Do(ctx, protocol.Request{Verb: protocol.VerbHello}, 2*time.Minute)
	if err == nil && reply.Fail != "" {
		err = fmt.Errorf("hello failed: %s", reply.Fail)
	}
	if err != nil {
		t.Fatal(err)
	}
	h, err := protocol.ParseHello(reply.Lines)
	if err != nil {
		t.Fatal(err)
	}
	runners.hellos[group] = h
	return h
}

// groupCommand builds the runner of group and returns the command that
// starts it.
func groupCommand(ctx context.Context, b *launcher.Builder, jb *launcher.JarBuilder, group string) ([]string, error) {
	for _, s := range targets.All() {
		if s.Group != group {
			continue
		}
		if s.JVM {
			jar, err := jb.Build(ctx)
			if err != nil {
				return nil, err
			}
			return jb.Command(jar), nil
		}
		bin, err := b.Build(ctx, group, s.Cgo)
		return []string{bin}, err
	}
	return nil, os.ErrNotExist
}

func need(t *testing.T, tools ...string) {
	t.Helper()
	testenv.Programs(t, tools...)
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, c := range runners.conns {
		c.Close()
	}
	os.Exit(code)
}

// TestRunnersDeclareTheirCatalogueTargets builds and starts every group's
// runner and checks its hello against the catalogue: every obtainable
// catalogue target of the group is linked with exactly the catalogue's
// capabilities, the runner links no target the catalogue does not put in
// its group, and a Go runner declares the Go workload catalogue.
func TestRunnersDeclareTheirCatalogueTargets(t *testing.T) {
	var groups []string
	for _, s := range targets.All() {
		if s.Unobtainable == "" && !slices.Contains(groups, s.Group) {
			groups = append(groups, s.Group)
		}
	}
	var goIDs []string
	for _, w := range bench.Workloads() {
		goIDs = append(goIDs, w.ID())
	}
	goIDs = append(goIDs, targets.ScriptWorkload) // built from each request, declared by every Go runner
	slices.Sort(goIDs)
	for _, g := range groups {
		t.Run(g, func(t *testing.T) {
			h := declaration(t, g)
			jvm := false
			for _, s := range targets.All() {
				if s.Group != g || s.Unobtainable != "" {
					continue
				}
				jvm = s.JVM
				if err := session.CheckHello(h, s); err != nil {
					t.Errorf("%s: %v", s.Name, err)
				}
			}
			for name := range h.Targets {
				// One jar serves every JDBC target, each in a JVM of its own.
				if s, ok := targets.Lookup(name); !ok || (s.Group != g && !(jvm && s.JVM)) {
					t.Errorf("the runner links %s, which the catalogue does not put in group %s", name, g)
				}
			}
			if len(h.Workloads) == 0 {
				t.Error("the runner declares no workloads")
			}
			if !jvm && !slices.Equal(h.Workloads, goIDs) {
				t.Errorf("the Go runner declares %d workloads, the Go catalogue has %d: built from other source?",
					len(h.Workloads), len(goIDs))
			}
		})
	}
}

// TestEveryGoWorkloadOfAJDBCFamilyHasAJavaTwin: for every family the JDBC
// runner implements a workload of, every Go workload of that family that
// runs on a JDBC target's database, with the capability it needs declared by
// that target, must be declared by the JDBC runner too, or be excused in
// javaTwinExclusions. Every workload the JDBC runner declares must be a Go
// workload (the same ID), since the Go catalogue names and describes them,
// or the script workload, which both runners build from each request.
func TestEveryGoWorkloadOfAJDBCFamilyHasAJavaTwin(t *testing.T) {
	var jdbc []targets.Spec
	for _, s := range targets.All() {
		if s.JVM && s.Unobtainable == "" {
			jdbc = append(jdbc, s)
		}
	}
	if len(jdbc) == 0 {
		t.Fatal("the catalogue has no JDBC target")
	}
	// Every JDBC target is its own group, all served by one jar: one hello
	// declares them all.
	h := declaration(t, jdbc[0].Group)
	var families []string
	for _, id := range h.Workloads {
		if id == targets.ScriptWorkload {
			continue // built from each request's spec, as by every Go runner
		}
		w, ok := bench.LookupWorkload(id)
		if !ok {
			t.Errorf("the JDBC runner declares %s, which is no Go workload's ID", id)
			continue
		}
		if !slices.Contains(families, w.Family) {
			families = append(families, w.Family)
		}
	}
	if len(families) == 0 {
		t.Fatal("the JDBC runner implements no workload of any Go family")
	}
	gaps, stale := javaTwinGaps(h, jdbc, families, javaTwinExclusions)
	for _, g := range gaps {
		t.Errorf("%s, but the JDBC runner does not implement it: write its Java twin in jdbc/, or excuse it in "+
			"javaTwinExclusions with the reason", g)
	}
	for _, id := range stale {
		t.Errorf("javaTwinExclusions excuses %s, which needs no excuse (implemented now, or no Go workload of a JDBC "+
			"family on a JDBC target's database): remove it", id)
	}
	t.Logf("the JDBC runner implements families %v: %d workloads", families, len(h.Workloads))
}

// javaTwinGaps returns the Go workloads of families that run on a JDBC
// target of jdbc (its database, the capability they need declared in h)
// but that h does not declare and excluded does not excuse, one line each;
// and the IDs excluded excuses without need.
func javaTwinGaps(h protocol.Hello, jdbc []targets.Spec, families []string, excluded map[string]string) (gaps,
	stale []string) {
	excused := map[string]bool{}
	for _, s := range jdbc {
		for _, w := range bench.Workloads() {
			if !slices.Contains(families, w.Family) || !w.RunsOn(s.DB) || (w.Needs != "" && !h.Has(s.Name, w.Needs)) ||
				h.Implements(w.ID()) {
				continue
			}
			if _, ok := excluded[w.ID()]; ok {
				excused[w.ID()] = true
				continue
			}
			gaps = append(gaps, fmt.Sprintf("%s (family %s) runs on %s", w.ID(), w.Family, s.Name))
		}
	}
	for id := range excluded {
		if !excused[id] {
			stale = append(stale, id)
		}
	}
	slices.Sort(stale)
	return gaps, stale
}

// TestJavaTwinGapsFindsAMissingTwin checks the check itself on a made-up
// declaration: a JDBC runner that implements the classic family but one of
// its workloads, on a SQLite target with the batch capability.
func TestJavaTwinGapsFindsAMissingTwin(t *testing.T) {
	sqlite, _ := targets.Lookup("jdbc-sqlite")
	h := protocol.Hello{Protocol: protocol.ProtocolVersion,
		Targets: map[string][]bench.Cap{sqlite.Name: {bench.CapBatch}}}
	var missing string
	for _, w := range bench.Workloads() {
		if w.Family != "classic" || !w.RunsOn(bench.SQLite) {
			continue
		}
		if missing == "" {
			missing = w.ID()
			continue
		}
		h.Workloads = append(h.Workloads, w.ID())
	}
	slices.Sort(h.Workloads)
	if missing == "" {
		t.Fatal("no classic workload runs on SQLite")
	}
	gaps, stale := javaTwinGaps(h, []targets.Spec{sqlite}, []string{"classic"},
		map[string]string{"NoSuchWorkload": "made up"})
	if len(gaps) != 1 || !strings.HasPrefix(gaps[0], missing+" (family classic) runs on jdbc-sqlite") {
		t.Errorf("gaps %q, want the one of %s", gaps, missing)
	}
	if !slices.Equal(stale, []string{"NoSuchWorkload"}) {
		t.Errorf("stale exclusions %q, want NoSuchWorkload", stale)
	}
	gaps, stale = javaTwinGaps(h, []targets.Spec{sqlite}, []string{"classic"}, map[string]string{missing: "excused"})
	if len(gaps) != 0 || len(stale) != 0 {
		t.Errorf("with %s excused: gaps %q, stale %q", missing, gaps, stale)
	}
}
