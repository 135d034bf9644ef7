package sqinn_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/testenv"
)

// script runs scripts/sqinn with env added to a clean environment (no
// SQINN_PATH), returning stdout, stderr and the exit status.
func script(t *testing.T, env ...string) (string, string, int) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "sqinn"))
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return stdout.String(), stderr.String(), exit.ExitCode()
	case err != nil:
		t.Fatalf("scripts/sqinn: %v", err)
	}
	return stdout.String(), stderr.String(), 0
}

// TestScriptSaysWhySqinnCannotBeHad: with no cached program, no sources
// beside the repository and the public repository out of reach (here an
// address that does not exist), scripts/sqinn exits 3 with one line naming
// what it tried and how to get the program; the tests then skip.
func TestScriptSaysWhySqinnCannotBeHad(t *testing.T) {
	stdout, stderr, status := script(t,
		"XDG_CACHE_HOME="+t.TempDir(),
		"SQLBENCH_SQINN_SRC=/nonexistent/sqinn/src",
		"SQLBENCH_SQINN_REPO=file:///nonexistent/sqinn.git")
	if status != 3 {
		t.Fatalf("exit status %d, want 3; stdout %q, stderr:\n%s", status, stdout, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing (no path)", stdout)
	}
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if len(lines) != 1 {
		t.Errorf("stderr has %d lines, want one:\n%s", len(lines), stderr)
	}
	for _, want := range []string{"file:///nonexistent/sqinn.git", "could not be cloned", "v1.1.27", "SQINN_PATH"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
}

// TestScriptBuildsFromThePublicRepository builds sqinn the way a user's
// machine does, from a clone of the repository at tag v1.1.27 — here a
// local repository laid out as upstream's (src/ with the program's files
// and the bundled SQLite header, which the build must not use), made from
// the sources CI keeps beside this one — then finds the cached program
// without building it again.
func TestScriptBuildsFromThePublicRepository(t *testing.T) {
	testenv.Programs(t, "git", "gcc")
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "sqinn", "src"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(src, "main.c")); err != nil {
		testenv.NeedSqinn(t, errors.New("its sources are not beside the repository (../shared/sqinn/src)"))
	}
	upstream := t.TempDir()
	if err := os.CopyFS(filepath.Join(upstream, "src"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	// A header the build must not pick up instead of the system's.
	if err := os.WriteFile(filepath.Join(upstream, "src", "sqlite3.h"), []byte("#error bundled header used\n"),
		0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q"}, {"add", "."},
		{"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "v1.1.27"},
		{"tag", "v1.1.27"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", upstream}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cache := t.TempDir()
	env := []string{"XDG_CACHE_HOME=" + cache, "SQLBENCH_SQINN_SRC=/nonexistent/sqinn/src", "SQLBENCH_SQINN_REPO=" +
		upstream}
	stdout, stderr, status := script(t, env...)
	if status != 0 {
		t.Fatalf("exit status %d, stderr:\n%s", status, stderr)
	}
	bin := strings.TrimSpace(stdout)
	if want := filepath.Join(cache, "sqlbench", "sqinn-v1.1.27", "sqinn"); bin != want {
		t.Fatalf("path %q, want %q", bin, want)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "sqinn v1.1.27" {
		t.Fatalf("%s version: %q, %v", bin, out, err)
	}
	before, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	// Cached: found again with the repository gone, and not rebuilt.
	env[len(env)-1] = "SQLBENCH_SQINN_REPO=file:///nonexistent/sqinn.git"
	stdout, stderr, status = script(t, env...)
	if status != 0 || strings.TrimSpace(stdout) != bin {
		t.Fatalf("second call: status %d, path %q, stderr:\n%s", status, stdout, stderr)
	}
	after, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the cached program was rebuilt")
	}
}

// TestScriptHonoursSQINNPath: a SQINN_PATH naming no executable is an error
// (exit 1), not a reason to build.
func TestScriptHonoursSQINNPath(t *testing.T) {
	_, stderr, status := script(t, "SQINN_PATH=/nonexistent/sqinn", "XDG_CACHE_HOME="+t.TempDir())
	if status != 1 || !strings.Contains(stderr, "SQINN_PATH=/nonexistent/sqinn is not an executable file") {
		t.Fatalf("exit status %d, stderr:\n%s", status, stderr)
	}
}
