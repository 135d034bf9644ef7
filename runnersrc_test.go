package sqlbench

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunnerSourceComplete fails when the Go runner, with every driver
// group's build tag, imports a package of this module whose Go files are
// not embedded: an installed sqlbench could not build that runner.
func TestRunnerSourceComplete(t *testing.T) {
	groups, err := filepath.Glob("cmd/sqlbench-runner/group_*.go")
	if err != nil || len(groups) == 0 {
		t.Fatalf("no runner groups: %v", err)
	}
	var tags []string
	for _, g := range groups {
		tags = append(tags, "sqlbench_"+strings.TrimSuffix(strings.TrimPrefix(filepath.Base(g), "group_"), ".go"))
	}
	out, err := exec.Command("go", "list", "-deps", "-tags", strings.Join(tags, ","),
		"-f", "{{if not .Standard}}{{.ImportPath}}\t{{.Dir}}{{end}}", "./cmd/sqlbench-runner").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, _ := os.Getwd()
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, dir, _ := strings.Cut(line, "\t")
		if path != "github.com/sqlbench/sqlbench" && !strings.HasPrefix(path, "github.com/sqlbench/sqlbench/") {
			continue
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			name := filepath.ToSlash(filepath.Join(rel, filepath.Base(f)))
			if _, err := fs.Stat(RunnerSource(), name); err != nil {
				t.Errorf("the runner imports %s, but %s is not embedded: add its directory to runnersrc.go", path, name)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("checked %d files of the runner's packages; go list found too few", checked)
	}
	for _, f := range []string{"go.mod", "go.sum", "jdbc/pom.xml"} {
		if _, err := fs.Stat(RunnerSource(), f); err != nil {
			t.Errorf("%s is not embedded", f)
		}
	}
}
