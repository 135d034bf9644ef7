package sqlbench

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is this module's path.
const module = "github.com/sqlbench/sqlbench"

// runnerTags returns the build tags of every runner group, so that the
// Go runner is listed with every driver linked in.
func runnerTags(t *testing.T) string {
	t.Helper()
	groups, err := filepath.Glob("cmd/sqlbench-runner/group_*.go")
	if err != nil || len(groups) == 0 {
		t.Fatalf("no runner groups: %v", err)
	}
	var tags []string
	for _, g := range groups {
		tags = append(tags, "sqlbench_"+strings.TrimSuffix(strings.TrimPrefix(filepath.Base(g), "group_"), ".go"))
	}
	return strings.Join(tags, ",")
}

// goList runs go list with args and returns its output's lines: this
// module's packages only, the module path cut to ".".
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if p == module || strings.HasPrefix(p, module+"/") {
			pkgs = append(pkgs, "."+strings.TrimPrefix(p, module))
		}
	}
	return pkgs
}

// runnerSide reports whether a package of this module (".", "./bench")
// may be linked into a runner: the workloads and what they run on, the
// drivers and their adapters, the serving loop, the protocol, and the
// readers of /proc the loop measures with. Nothing of the orchestrator: not
// the catalogue (./targets), the session, the launcher, the servers, the
// reports.
func runnerSide(p string) bool {
	switch p {
	case "./bench", "./floor", "./floor/wire", "./workloads", "./internal/runner", "./internal/protocol",
		"./internal/envinfo", "./internal/procs", "./internal/unit":
		return true
	}
	return strings.HasPrefix(p, "./workloads/") || strings.HasPrefix(p, "./targets/") && p != "./targets/targettest"
}

// TestRunnerSideImportsNoOrchestrator: the Go runner with every driver
// group, its serving loop and the protocol depend on no package of the
// orchestrator side, and the protocol on nothing of this module but bench
// (a leaf both binaries share, as pgproto3 is pgx's).
func TestRunnerSideImportsNoOrchestrator(t *testing.T) {
	deps := goList(t, "-deps", "-tags", runnerTags(t), "./cmd/sqlbench-runner", "./internal/runner")
	if !slices.Contains(deps, "./internal/protocol") || !slices.Contains(deps, "./internal/runner") {
		t.Fatalf("go list -deps found no runner loop or protocol: %v", deps)
	}
	for _, p := range deps {
		if p != "./cmd/sqlbench-runner" && !runnerSide(p) {
			t.Errorf("the runner side depends on %s, a package of the orchestrator side", p)
		}
	}
	for _, p := range goList(t, "-deps", "./internal/protocol") {
		if p != "./internal/protocol" && p != "./bench" {
			t.Errorf("the protocol depends on %s; it may import only bench and the standard library", p)
		}
	}
}

// TestCLIImportsOnlyTheSessionAndLeaves: the command line reaches the
// machinery of a session (runners, their protocol, CPU placement) only
// through package session; every other package of this module it imports
// is a leaf of the session's machinery, which depends on none of it.
func TestCLIImportsOnlyTheSessionAndLeaves(t *testing.T) {
	machinery := []string{"./internal/session", "./internal/launcher", "./internal/runner", "./internal/protocol",
		"./internal/pin"}
	imports := goList(t, "-f", `{{join .Imports " "}}`, "./internal/cli")
	if !slices.Contains(imports, "./internal/session") {
		t.Fatalf("internal/cli does not import the session: %v", imports)
	}
	for _, p := range imports {
		if p == "./internal/session" {
			continue
		}
		if slices.Contains(machinery, p) {
			t.Errorf("internal/cli imports %s: go through package session", p)
			continue
		}
		for _, d := range goList(t, "-deps", p) {
			if slices.Contains(machinery, d) {
				t.Errorf("internal/cli imports %s, which depends on %s: not a leaf", p, d)
			}
		}
	}
	if _, err := os.Stat("internal/orchestrate"); err == nil {
		t.Error("internal/orchestrate is back: a session's loop belongs to package session")
	}
}

// TestPublicPackagesImportNoInternal: no package another module may import
// (neither under an internal/ directory nor a command) depends on this
// module's internal/, whose packages are the orchestrator's: a public
// package that did could not be used without them (targettest from a
// driver's own module), and would tie the runner side to the orchestrator.
// The drivers' shared adapters under targets/internal are theirs alone and
// import nothing of internal/ either.
func TestPublicPackagesImportNoInternal(t *testing.T) {
	lines := goListAll(t, "-tags", runnerTags(t), "-f", `{{.ImportPath}} {{.Name}} {{join .Deps " "}}`, "./...")
	public := 0
	for _, line := range lines {
		f := strings.Fields(line)
		p, name, deps := f[0], f[1], f[2:]
		if name == "main" || p == module+"/internal" || strings.HasPrefix(p, module+"/internal/") {
			continue
		}
		public++
		for _, d := range deps {
			if strings.HasPrefix(d, module+"/internal/") {
				t.Errorf("%s depends on %s: a public package may not depend on internal/",
					"."+strings.TrimPrefix(p, module), "."+strings.TrimPrefix(d, module))
			}
		}
	}
	if public < 10 {
		t.Fatalf("go list found only %d public packages: %v", public, lines)
	}
}

// goListAll runs go list with args and returns its output's lines whole.
func goListAll(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}
