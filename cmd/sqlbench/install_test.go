package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// testVersion is the version TestInstallAnywhere publishes the module as,
// on a module proxy of its own.
const testVersion = "v0.0.0-install-test"

// TestInstallAnywhere does what a new user does: go install
// github.com/sqlbench/sqlbench/cmd/sqlbench@VERSION, then run it from an
// empty directory outside the source tree with no SQLBENCH_SRC. The module
// is served, as the go command fetches it from any proxy, by a file proxy
// holding this tree's files (the ones git tracks or would track) zipped by
// golang.org/x/mod/zip; its dependencies come from the local module cache,
// so nothing is fetched from the network. The runners must come from the
// sources embedded in the binary, and the quick run must write results.
func TestInstallAnywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: installs sqlbench and runs it (a minute or more)")
	}
	gobin, proxy, modcache := t.TempDir(), t.TempDir(), t.TempDir()
	publish(t, proxy, testVersion)
	download, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	install := exec.Command("go", "install", modulePath+"/cmd/sqlbench@"+testVersion)
	install.Dir = t.TempDir() // outside the module: as a user runs it
	install.Env = append(os.Environ(), "GOBIN="+gobin, "GOMODCACHE="+modcache, "GOFLAGS=-modcacherw", "GOSUMDB=off",
		"GOPROXY=file://"+proxy+",file://"+filepath.Join(strings.TrimSpace(string(download)), "cache", "download"))
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install %s/cmd/sqlbench@%s: %v\n%s", modulePath, testVersion, err, out)
	}
	bin := filepath.Join(gobin, "sqlbench")
	work := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SQLBENCH_SRC=") {
			env = append(env, kv)
		}
	}
	sqlbench := func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = work, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("sqlbench %s: %v", strings.Join(args, " "), err)
		}
		return stdout.String(), stderr.String(), code
	}

	version, _, code := sqlbench("version")
	lines := strings.Split(strings.TrimSpace(version), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "sqlbench "+testVersion+" ") ||
		!strings.HasPrefix(lines[1], "embedded runner sources: key ") ||
		!strings.Contains(lines[2], "the embedded sources") {
		t.Errorf("sqlbench version: exit %d, output:\n%s", code, version)
	}
	key := strings.TrimPrefix(lines[1], "embedded runner sources: key ")

	// The runner cache is shared with the other tests: it is keyed by the
	// sources' content, so what is in it was built from these sources.
	cache := filepath.Join(os.TempDir(), "sqlbench-test-runners")
	_, stderr, code := sqlbench("run", "--quick", "-o", "results.txt", "--cache", cache)
	// Exit 1 is a run with skipped targets (no JDK, no sqinn here); a
	// runner that could not be built is a failure whatever the status.
	if (code != 0 && code != 1) || strings.Contains(stderr, "source tree") || strings.Contains(stderr, "build runner") {
		t.Fatalf("sqlbench run --quick: exit %d\n%s", code, stderr)
	}
	f, err := os.Open(filepath.Join(work, "results.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := benchfile.Read(f, "results.txt")
	if err != nil {
		t.Fatal(err)
	}
	drivers := map[string]bool{}
	for _, r := range set.Results {
		if v := r.GetConfig("runner-source"); v != "embedded "+key {
			t.Fatalf("runner-source %q, want %q", v, "embedded "+key)
		}
		for _, part := range strings.Split(string(r.Name), "/") {
			if d, ok := strings.CutPrefix(part, "driver="); ok {
				drivers[d] = true
			}
		}
	}
	// The pure-Go runner's drivers run everywhere; the cgo ones need a C
	// compiler, which a Go user may lack.
	for _, d := range []string{"modernc", "ncruces", "zombiezen"} {
		if !drivers[d] {
			t.Errorf("no results from %s (results from %v)\n%s", d, drivers, stderr)
		}
	}
}

// modulePath is the module the test publishes.
const modulePath = "github.com/sqlbench/sqlbench"

// publish writes the module at the root of this tree, as version, into a
// file module proxy at dir: the files git tracks, and the untracked ones it
// does not ignore, as they are in the working tree.
func publish(t *testing.T, dir, version string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ls := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		t.Skipf("git ls-files: %v: the test publishes the files of a git checkout", err)
	}
	var files []modzip.File
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if _, err := os.Lstat(filepath.Join(root, name)); err == nil { // not deleted in the working tree
			files = append(files, treeFile{root: root, path: name})
		}
	}
	at := filepath.Join(dir, modulePath, "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	z, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	if err := modzip.Create(z, module.Version{Path: modulePath, Version: version}, files); err != nil {
		t.Fatalf("zip the module: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{
		version + ".mod":  gomod,
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-01-01T00:00:00Z"}`),
		"list":            []byte(version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(at, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// treeFile is a file of the working tree, for golang.org/x/mod/zip.
type treeFile struct{ root, path string }

func (f treeFile) Path() string                 { return f.path }
func (f treeFile) Lstat() (os.FileInfo, error)  { return os.Lstat(filepath.Join(f.root, f.path)) }
func (f treeFile) Open() (io.ReadCloser, error) { return os.Open(filepath.Join(f.root, f.path)) }
