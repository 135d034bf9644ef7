package bisect

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// gitRepo makes a git repository in a temp directory holding a go.mod,
// with n commits after the first, each changing a.go; it returns the
// directory and the hashes, the first commit's first.
func gitRepo(t *testing.T, n int) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("init", "-q", "-b", "main")
	var hashes []string
	for i := 0; i <= n; i++ {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		src := []byte("package m\n\nconst N = " + strconv.Itoa(i) + "\n")
		if err := os.WriteFile(filepath.Join(dir, "a.go"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		run("add", "-A")
		run("commit", "-q", "-m", "commit "+strconv.Itoa(i))
		h := run("rev-parse", "HEAD")
		hashes = append(hashes, h[:len(h)-1])
	}
	return dir, hashes
}

func TestCommits(t *testing.T) {
	dir, h := gitRepo(t, 4)
	good, list, err := Commits(context.Background(), dir, h[0], "main")
	if err != nil {
		t.Fatal(err)
	}
	if good.Hash != h[0] || good.Subject != "commit 0" || len(list) != 4 {
		t.Fatalf("good %+v, %d commits; want %s and 4", good, len(list), h[0])
	}
	for i, c := range list {
		if c.Hash != h[i+1] || c.Subject != "commit "+strconv.Itoa(i+1) {
			t.Errorf("commit %d: %+v, want %s", i, c, h[i+1])
		}
	}
	for _, c := range [][2]string{{"main", "main"}, {h[3], h[1]}, {"nosuch", "main"}, {h[0], "nosuch"}} {
		var ie InputError
		if _, _, err := Commits(context.Background(), dir, c[0], c[1]); !errors.As(err, &ie) {
			t.Errorf("good %s bad %s: %v, want an InputError", c[0], c[1], err)
		}
	}
	out := filepath.Join(t.TempDir(), "x")
	if err := Extract(context.Background(), dir, list[1], out); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "a.go")); err != nil || string(b) != "package m\n\nconst N = 2\n" {
		t.Errorf("extracted a.go: %q, %v", b, err)
	}
}
