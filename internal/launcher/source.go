package launcher

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Source is the tree runners are built from: a sqlbench source tree found
// on disk (development), or the sources embedded in the sqlbench binary,
// extracted into the runner cache.
type Source struct {
	// Dir is the module root the runners are built in.
	Dir string
	// Embedded is set when Dir holds the binary's embedded sources.
	Embedded bool
	// Key identifies the embedded sources (a content hash); empty for a
	// source tree.
	Key string
}

// String says where runners come from, for the log.
func (s Source) String() string {
	if s.Embedded {
		return fmt.Sprintf("the sources embedded in sqlbench (key %s)", s.Key)
	}
	return "the source tree " + s.Dir
}

// ResolveSource returns where to build runners: $SQLBENCH_SRC when set, else
// a sqlbench source tree at or above dir (a developer's clone, so that
// changes to it are built), else the embedded sources, extracted into
// cache/src-KEY on first use. A $SQLBENCH_SRC that holds no sqlbench module
// is an error.
func ResolveSource(dir, cache string, embedded fs.FS) (Source, error) {
	src, err := FindSource(dir)
	if err == nil {
		return Source{Dir: src}, nil
	}
	if os.Getenv("SQLBENCH_SRC") != "" || embedded == nil {
		return Source{}, err
	}
	return Extract(embedded, cache)
}

// EmbeddedKey returns the content key of the runner sources in fsys: the
// first 16 hex digits of the SHA-256 of every file's path, length and bytes
// (test files left out, as they are from the extracted tree).
func EmbeddedKey(fsys fs.FS) (string, error) {
	h := sha256.New()
	err := walkSources(fsys, func(p string, b []byte) error {
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash the embedded runner sources: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Extract writes the runner sources in fsys to cache/src-KEY, unless a
// complete copy is there already, and returns it. Two sessions extracting
// at once each build a copy of their own and rename it into place; the
// loser's copy is removed.
func Extract(fsys fs.FS, cache string) (Source, error) {
	key, err := EmbeddedKey(fsys)
	if err != nil {
		return Source{}, err
	}
	s := Source{Dir: filepath.Join(cache, "src-"+key), Embedded: true, Key: key}
	if _, err := os.Stat(filepath.Join(s.Dir, "go.mod")); err == nil {
		return s, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return Source{}, fmt.Errorf("runner cache: %w", err)
	}
	tmp, err := os.MkdirTemp(cache, "src-"+key+".*.tmp")
	if err != nil {
		return Source{}, fmt.Errorf("runner cache: %w", err)
	}
	err = walkSources(fsys, func(p string, b []byte) error {
		dst := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		os.RemoveAll(tmp)
		return Source{}, fmt.Errorf("extract the runner sources: %w", err)
	}
	if err := os.Rename(tmp, s.Dir); err != nil {
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(filepath.Join(s.Dir, "go.mod")); statErr == nil {
			return s, nil // another session put its copy there first
		}
		return Source{}, fmt.Errorf("runner cache: %w", err)
	}
	return s, nil
}

// walkSources calls fn with the slash path and bytes of every file of fsys
// a runner is built from, in lexical order: everything but Go test files.
func walkSources(fsys fs.FS, fn func(p string, b []byte) error) error {
	found := false
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
			return err
		}
		found = found || p == "go.mod"
		f, err := fsys.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			return err
		}
		return fn(path.Clean(p), b)
	})
	if err == nil && !found {
		err = errors.New("no go.mod among them")
	}
	return err
}
