package targettest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// module is this module's path.
const module = "github.com/sqlbench/sqlbench"

// TestExampleModule builds a module of its own outside this repository, as
// a driver's author would: a driver package (testdata/exampledriver, a
// target of mattn/go-sqlite3 through database/sql) whose test is one call of
// Conformance, with this module required through a replace directive. Its
// tests must pass, and nothing it builds may come from this module's
// internal/ (a public package that exposed an internal type would have to
// import it). It runs offline, from the module cache this module's own
// build filled (GOPROXY=off).
func TestExampleModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a module of its own")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join("testdata", "exampledriver")
	files, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The go.sum of this module has every sum the example's build needs:
	// it requires nothing this module does not.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	const mattn = "github.com/mattn/go-sqlite3"
	mod := "module example.com/exampledriver\n\ngo " + goVersion(t, root) + "\n\n" +
		"require (\n\t" + module + " v0.0.0\n\t" + mattn + " " + requirement(t, root, mattn) + "\n)\n\n" +
		"replace " + module + " => " + root + "\n"
	for name, b := range map[string][]byte{"go.mod": []byte(mod), "go.sum": sum} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goIn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in the example module: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	for _, p := range strings.Fields(goIn("list", "-deps", "-test", "./...")) {
		if strings.HasPrefix(p, module+"/internal/") {
			t.Errorf("the example module's test depends on %s", p)
		}
	}
	out := goIn("test", "-count=1", "-v", "./...")
	if !strings.Contains(out, "--- PASS: TestConformance/example-sqlite3/Workloads") {
		t.Errorf("the example module's conformance test ran no workloads:\n%s", out)
	}
}

// goVersion returns the go directive of the module at root.
func goVersion(t *testing.T, root string) string {
	t.Helper()
	return listModule(t, root, "{{.GoVersion}}", module)
}

// requirement returns the version of path the module at root requires.
func requirement(t *testing.T, root, path string) string {
	t.Helper()
	return listModule(t, root, "{{.Version}}", path)
}

// listModule runs go list -m -f format path in root.
func listModule(t *testing.T, root, format, path string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-m", "-f", format, path)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", path, err)
	}
	return strings.TrimSpace(string(out))
}
