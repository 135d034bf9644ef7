package launcher

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// TestExtractEmbeddedSources extracts a source set into a cache: the
// directory is named by the content key, holds every file but Go test
// files, is reused, and a changed file gives another key.
func TestExtractEmbeddedSources(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":              {Data: []byte("module " + ModulePath + "\n")},
		"cmd/r/main.go":       {Data: []byte("package main\n")},
		"cmd/r/main_test.go":  {Data: []byte("package main\n")},
		"jdbc/pom.xml":        {Data: []byte("<project/>\n")},
		"jdbc/src/main/A.txt": {Data: []byte("a\n")},
	}
	cache := t.TempDir()
	s, err := Extract(fsys, cache)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Embedded || s.Dir != filepath.Join(cache, "src-"+s.Key) || len(s.Key) != 16 {
		t.Fatalf("Extract = %+v", s)
	}
	for _, f := range []string{"go.mod", "cmd/r/main.go", "jdbc/pom.xml", "jdbc/src/main/A.txt"} {
		if _, err := os.Stat(filepath.Join(s.Dir, f)); err != nil {
			t.Errorf("%s not extracted: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "cmd/r/main_test.go")); err == nil {
		t.Error("a test file was extracted")
	}
	if got, err := FindSource(s.Dir); err != nil || got != s.Dir {
		t.Errorf("the extracted tree is not a source tree: %q, %v", got, err)
	}
	again, err := Extract(fsys, cache)
	if err != nil || again != s {
		t.Errorf("second Extract = %+v, %v; want %+v", again, err, s)
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries, want the one tree", len(entries))
	}
	fsys["cmd/r/main.go"] = &fstest.MapFile{Data: []byte("package main // changed\n")}
	if k, err := EmbeddedKey(fsys); err != nil || k == s.Key {
		t.Errorf("a changed file kept the key %s (%v)", k, err)
	}
	delete(fsys, "go.mod")
	if _, err := Extract(fsys, t.TempDir()); err == nil {
		t.Error("sources without go.mod were extracted")
	}
}

// TestResolveSourcePrefersATree: inside a source tree the tree is used;
// outside one, the embedded sources; a bad SQLBENCH_SRC is an error.
func TestResolveSourcePrefersATree(t *testing.T) {
	fsys := fstest.MapFS{"go.mod": {Data: []byte("module " + ModulePath + "\n")}}
	t.Setenv("SQLBENCH_SRC", "")
	os.Unsetenv("SQLBENCH_SRC")
	s, err := ResolveSource(".", t.TempDir(), fsys)
	if err != nil || s.Embedded {
		t.Errorf("in the tree: %+v, %v", s, err)
	}
	s, err = ResolveSource(t.TempDir(), t.TempDir(), fsys)
	if err != nil || !s.Embedded {
		t.Errorf("outside the tree: %+v, %v", s, err)
	}
	t.Setenv("SQLBENCH_SRC", t.TempDir())
	if _, err := ResolveSource(t.TempDir(), t.TempDir(), fsys); err == nil {
		t.Error("a SQLBENCH_SRC without the module was accepted")
	}
}
