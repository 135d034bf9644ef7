package session

import (
	"bytes"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fakeEnv is a machine with go, gcc, java and mvn on PATH, nothing else,
// logging to log.
func fakeEnv(log io.Writer) Env {
	return Env{
		Getenv: func(string) string { return "" },
		LookPath: func(name string) (string, error) {
			switch name {
			case "go", "gcc", "java", "mvn":
				return "/usr/bin/" + name, nil
			}
			return "", exec.ErrNotFound
		},
		Dir: "/nonexistent",
		Log: log,
	}
}

// golden compares got with testdata/name (go test -update rewrites it).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it)\n got:\n%s\nwant:\n%s", path, got, want)
	}
}
