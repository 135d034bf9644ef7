package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunRefusesToOverwriteResults: -o naming an existing file is bad
// input and leaves the file as it was; --force overwrites it.
func TestRunRefusesToOverwriteResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keep.txt")
	if err := os.WriteFile(path, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"run", "--targets", "jdbc-sqlite", "-o", path}, fakeEnv(&out, &errb))
	if code != ExitUsage || !strings.Contains(errb.String(), "exists: pass --force") {
		t.Errorf("exit %d, stderr %q; want 2 and a line saying the file exists", code, errb.String())
	}
	if b, _ := os.ReadFile(path); string(b) != "precious\n" {
		t.Errorf("the existing file now holds %q", b)
	}
}

// TestRunThatCannotStartLeavesNoFile: a session that ends before any run
// (here: its only target cannot be built on this machine) leaves no
// results file, whether named or default, and exits 3.
func TestRunThatCannotStartLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "--targets", "jdbc-sqlite", "-o", filepath.Join(dir, "named.txt")},
		{"run", "--targets", "jdbc-sqlite"},
	} {
		var out, errb bytes.Buffer
		env := fakeEnv(&out, &errb)
		env.Dir = dir
		code := Main(context.Background(), args, env)
		if code != ExitFailed || !strings.Contains(errb.String(), "no target can run") {
			t.Errorf("%v: exit %d, stderr %q; want 3, no target can run", args, code, errb.String())
		}
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
}
