// Package launcher builds runner binaries with the local Go toolchain (the
// JDBC runner's jar with Maven; a driver's other versions as Variants), from
// a source tree on disk or the sources embedded in sqlbench (Source), caches
// them with their build times (Estimate), builds them side by side (Batch),
// starts them as processes (under callgrind for --measure instructions) and
// speaks the runner protocol to them.
package launcher

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ModulePath is the import path of the sqlbench module; FindSource looks for
// the go.mod that declares it.
const ModulePath = "github.com/sqlbench/sqlbench"

// RunnerPackage is the Go runner's package, relative to the module root.
const RunnerPackage = "./cmd/sqlbench-runner"

// Builder builds Go runner binaries, one per driver group, into a cache
// directory. A binary is reused while the module's source, go.mod, go.sum
// and the Go version are unchanged.
type Builder struct {
	// Src is the module root; Cache is where binaries are kept.
	Src, Cache string
	// Go is the go command (default "go").
	Go string
	// Log receives one line per build.
	Log io.Writer
	// Origin says where Src comes from in that line (Source.String).
	Origin string
	// GoMod is the sqlbench module's go.mod, for a Resolve made before
	// the source is chosen (Src empty); with Src set, Src's is read.
	GoMod []byte
}

// FindSource returns the root of the sqlbench source tree: $SQLBENCH_SRC, or
// the first directory at or above dir whose go.mod declares ModulePath.
func FindSource(dir string) (string, error) {
	if env := os.Getenv("SQLBENCH_SRC"); env != "" {
		if !declaresModule(filepath.Join(env, "go.mod")) {
			return "", fmt.Errorf("SQLBENCH_SRC=%s holds no go.mod for %s", env, ModulePath)
		}
		return env, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find the sqlbench source tree: %w", err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		if declaresModule(filepath.Join(d, "go.mod")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("cannot find the sqlbench source tree (needed to build runners) at or above %s: "+
				"run sqlbench inside it or set SQLBENCH_SRC", dir)
		}
	}
}

func declaresModule(gomod string) bool {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return f[1] == ModulePath
		}
	}
	return false
}

// DefaultCache returns the default binary cache: the user cache directory's
// sqlbench/runners, or a directory under the temp dir.
func DefaultCache() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "sqlbench", "runners")
	}
	return filepath.Join(os.TempDir(), "sqlbench-runners")
}

// Cached returns the path the runner binary of group has in the cache for
// the current source and Go version, and whether it is there: whether
// Build would build it. It builds nothing.
func (b *Builder) Cached(ctx context.Context, group string) (bin string, ok bool, err error) {
	ver, err := exec.CommandContext(ctx, b.goCmd(), "env", "GOVERSION").Output()
	if err != nil {
		return "", false, fmt.Errorf("building the Go runners needs the Go toolchain (%s): %w", b.goCmd(), err)
	}
	key, err := sourceKey(b.Src, group, strings.TrimSpace(string(ver)))
	if err != nil {
		return "", false, err
	}
	bin = filepath.Join(b.Cache, fmt.Sprintf("sqlbench-runner-%s-%s", group, key))
	_, err = os.Stat(bin)
	return bin, err == nil, nil
}

// Build returns the path of the runner binary for group, building it first
// if the cache has none for the current source. A build's time is kept in
// the cache (Recorded).
func (b *Builder) Build(ctx context.Context, group string, cgo bool) (string, error) {
	bin, ok, err := b.Cached(ctx, group)
	if err != nil || ok {
		return bin, err
	}
	if err := os.MkdirAll(b.Cache, 0o755); err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	if b.Log != nil {
		fmt.Fprintf(b.Log, "building runner %q%s (first use, or its source changed)...\n", group, from(b.Origin))
	}
	began := time.Now()
	out, err := b.compile(ctx, bin, cgo, "-tags", "sqlbench_"+group)
	if err != nil {
		if out == "" { // the cache, or a cancelled build
			return "", err
		}
		return "", fmt.Errorf("build runner %q: %v: %s", group, err, lastLine(out))
	}
	RecordBuild(b.Cache, group, time.Since(began))
	return bin, nil
}

// compile builds the runner package into the cache as bin with the go
// build flags args: into a temp name of this build's own, renamed into
// place, so that two sessions building the same runner at once each put a
// complete binary there. On failure it returns the build's output with the
// error (ctx's when it was cancelled).
func (b *Builder) compile(ctx context.Context, bin string, cgo bool, args ...string) (string, error) {
	f, err := os.CreateTemp(b.Cache, filepath.Base(bin)+".*.tmp")
	if err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	tmp := f.Name()
	f.Close()
	cmd := exec.CommandContext(ctx, b.goCmd(), append(append([]string{"build"}, args...), "-o", tmp, RunnerPackage)...)
	cmd.Dir = b.Src
	cgoEnv := "CGO_ENABLED=0"
	if cgo {
		cgoEnv = "CGO_ENABLED=1"
	}
	cmd.Env = buildEnv(cgoEnv)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return out.String(), err
	}
	if err := os.Rename(tmp, bin); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("runner cache: %w", err)
	}
	return "", nil
}

// sourceKey hashes everything a runner binary is built from.
func sourceKey(src, group, goVersion string) (string, error) {
	var files []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != src && (strings.HasPrefix(name, ".") || name == "testdata" || name == "results" || name == "jdbc") {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if (strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")) || name == "go.mod" ||
			name == "go.sum" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash runner source: %w", err)
	}
	sort.Strings(files)
	key, err := hashFiles(group+"\x00"+goVersion+"\x00", src, files)
	if err != nil {
		return "", fmt.Errorf("hash runner source: %w", err)
	}
	return key, nil
}

// hashFiles returns a cache key: the first 16 hex digits of the SHA-256 of
// prefix and then, for each file, its path relative to base, its length and
// its bytes.
func hashFiles(prefix, base string, files []string) (string, error) {
	h := sha256.New()
	io.WriteString(h, prefix)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(base, f)
		fmt.Fprintf(h, "%s\x00%d\x00", rel, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// from returns " from origin", or nothing when origin is not known.
func from(origin string) string {
	if origin == "" {
		return ""
	}
	return " from " + origin
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return "no output"
}

// Download fetches the Go modules the runners of groups are built from
// (go list -deps of the runner package with their tags), keeping the go
// command's output rather than showing it, and returns how many modules
// it downloaded: none when the module cache has them all.
func (b *Builder) Download(ctx context.Context, groups []string) (int, error) {
	tags := make([]string, len(groups))
	for i, g := range groups {
		tags[i] = "sqlbench_" + g
	}
	cmd := exec.CommandContext(ctx, b.goCmd(), "list", "-deps", "-tags", strings.Join(tags, ","), RunnerPackage)
	cmd.Dir = b.Src
	cmd.Env = buildEnv()
	var out bytes.Buffer
	cmd.Stderr = &out
	err := cmd.Run()
	n := strings.Count(out.String(), "go: downloading ")
	if err != nil {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		return n, fmt.Errorf("go list: %s", lastLine(out.String()))
	}
	return n, nil
}
