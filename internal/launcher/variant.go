package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// Variant is one module of a runner group at another version than the
// sqlbench module requires: a release the module proxy serves, or a local
// checkout that a replace directive points the build at.
type Variant struct {
	// Module is the module's path (github.com/mattn/go-sqlite3).
	Module string
	// Version is the release (v1.14.22); empty for a local checkout.
	Version string
	// Dir is the local checkout's absolute directory; empty for a release.
	Dir string
}

// String is the variant as the command line names it: module@version, or
// module@dir.
func (v Variant) String() string {
	if v.Dir != "" {
		return v.Module + "@" + v.Dir
	}
	return v.Module + "@" + v.Version
}

// Resolved is a variant as it was found: a release's exact version and the
// checksums of its zip and go.mod, or a local checkout's content hash and
// VCS revision.
type Resolved struct {
	Variant
	// Sum and GoModSum are the release's go.sum hashes.
	Sum, GoModSum string
	// Own are the requirements of the release's own go.mod that the
	// sqlbench module requires only indirectly, at another version
	// ("modernc.org/libc@v1.66.3"): the variant is built with them, as a
	// program that depends on the release alone would be (modernc.org/sqlite
	// needs the exact libc its go.mod names), unless another module of the
	// build needs a later one.
	Own []string
	// With are the modules the variant was asked to be built with
	// (Builder.With), as module@version; they and their own requirements
	// are in Own.
	With []string
	// ContentHash hashes a local checkout's Go, C and module files.
	ContentHash string
	// Revision is a local checkout's VCS revision ("" when it has none);
	// Dirty is set when the checkout differs from it.
	Revision string
	Dirty    bool
	// Maven is set for a JDBC driver's Maven artifact (Module is
	// group:artifact).
	Maven bool
}

// Record is the one-line description of the variant that a results file
// keeps: the exact version and sum, or the directory, content hash and
// revision.
func (r Resolved) Record() string {
	if r.Maven {
		return r.Module + ":" + r.Version + " (Maven Central)"
	}
	with := ""
	if len(r.With) > 0 {
		with = ", built with " + strings.Join(r.With, ", ")
	}
	if r.Dir == "" {
		if len(r.Own) > 0 {
			if with != "" {
				return fmt.Sprintf("%s@%s %s%s; requires %s", r.Module, r.Version, r.Sum, with,
					strings.Join(r.Own, ", "))
			}
			return fmt.Sprintf("%s@%s %s, with its own %s", r.Module, r.Version, r.Sum, strings.Join(r.Own, ", "))
		}
		return fmt.Sprintf("%s@%s %s", r.Module, r.Version, r.Sum)
	}
	rev := r.Revision
	if rev == "" {
		rev = "no VCS revision"
	} else if r.Dirty {
		rev += " (dirty)"
	}
	if with != "" {
		with += "; requires " + strings.Join(r.Own, ", ")
	}
	return fmt.Sprintf("%s => %s content %s, %s%s", r.Module, r.Dir, r.ContentHash, rev, with)
}

// Resolve checks that v exists before anything is built: a release must be
// served by the module proxy (go mod download), a local checkout must be a
// directory holding a go.mod that declares v.Module. Its error is one line,
// naming the module and version and what the proxy or the file system said.
func (b *Builder) Resolve(ctx context.Context, v Variant) (Resolved, error) {
	if v.Dir != "" {
		return resolveDir(v)
	}
	cmd := exec.CommandContext(ctx, b.goCmd(), "mod", "download", "-json", v.Module+"@"+v.Version)
	cmd.Dir = b.Src
	cmd.Env = buildEnv()
	out, err := cmd.Output()
	var info struct{ Version, Sum, GoModSum, GoMod, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil {
		if err == nil {
			err = jerr
		}
		return Resolved{}, fmt.Errorf("%s@%s: the module proxy could not be asked: %v", v.Module, v.Version, err)
	}
	if info.Error != "" {
		return Resolved{}, fmt.Errorf("%s@%s does not resolve: %s", v.Module, v.Version, firstLine(info.Error))
	}
	if info.Version != v.Version {
		return Resolved{},
			fmt.Errorf("%s@%s: the proxy resolves it to %s; name the exact version", v.Module, v.Version, info.Version)
	}
	main := b.GoMod
	if main == nil {
		if main, err = os.ReadFile(filepath.Join(b.Src, "go.mod")); err != nil {
			return Resolved{}, fmt.Errorf("%s@%s: read go.mod: %w", v.Module, v.Version, err)
		}
	}
	release, err := os.ReadFile(info.GoMod)
	if err != nil {
		return Resolved{}, fmt.Errorf("%s@%s: read the release's go.mod: %w", v.Module, v.Version, err)
	}
	own, err := ownRequirements(main, release)
	if err != nil {
		return Resolved{}, fmt.Errorf("%s@%s: %w", v.Module, v.Version, err)
	}
	return Resolved{Variant: v, Sum: info.Sum, GoModSum: info.GoModSum, Own: own}, nil
}

// With returns r to be built with the modules with names too
// (module@version, each served by the module proxy), as a program whose
// go.mod requires them beside r's release would be: Own gains each of them
// and their own requirements (ownRequirements), the highest version of a
// module winning, as Go's minimal version selection picks.
func (b *Builder) With(ctx context.Context, r Resolved, with []string) (Resolved, error) {
	all := slices.Clone(r.Own)
	for _, w := range with {
		m, v, ok := strings.Cut(w, "@")
		if !ok || m == "" || !semver.IsValid(v) {
			return r, fmt.Errorf("with %q: want module@version", w)
		}
		own, err := b.Resolve(ctx, Variant{Module: m, Version: v})
		if err != nil {
			return r, fmt.Errorf("with %w", err)
		}
		all = append(append(all, w), own.Own...)
	}
	best := map[string]string{}
	for _, req := range all {
		m, v, _ := strings.Cut(req, "@")
		if old, ok := best[m]; !ok || semver.Compare(v, old) > 0 {
			best[m] = v
		}
	}
	r.Own = r.Own[:0:0]
	for m, v := range best {
		r.Own = append(r.Own, m+"@"+v)
	}
	sort.Strings(r.Own)
	r.With = slices.Clone(with)
	return r, nil
}

// ownRequirements returns the requirements of a release's go.mod that the
// main module's go.mod lists as indirect at another version, as
// "path@version", sorted.
func ownRequirements(main, release []byte) ([]string, error) {
	m, err := modfile.ParseLax("go.mod", main, nil)
	if err != nil {
		return nil, fmt.Errorf("read go.mod: %w", err)
	}
	r, err := modfile.ParseLax("go.mod", release, nil)
	if err != nil {
		return nil, fmt.Errorf("read the release's go.mod: %w", err)
	}
	indirect := map[string]string{}
	for _, req := range m.Require {
		if req.Indirect {
			indirect[req.Mod.Path] = req.Mod.Version
		}
	}
	var out []string
	for _, req := range r.Require {
		if v, ok := indirect[req.Mod.Path]; ok && v != req.Mod.Version {
			out = append(out, req.Mod.Path+"@"+req.Mod.Version)
		}
	}
	sort.Strings(out)
	return out, nil
}

// resolveDir checks a local checkout and hashes its content.
func resolveDir(v Variant) (Resolved, error) {
	b, err := os.ReadFile(filepath.Join(v.Dir, "go.mod"))
	if err != nil {
		return Resolved{}, fmt.Errorf("%s@%s: no go.mod there (%v)", v.Module, v.Dir, errors.Unwrap(err))
	}
	if got := modulePath(b); got != v.Module {
		return Resolved{}, fmt.Errorf("%s@%s: its go.mod declares %q, not %s", v.Module, v.Dir, got, v.Module)
	}
	hash, err := dirHash(v.Dir)
	if err != nil {
		return Resolved{}, fmt.Errorf("%s@%s: %w", v.Module, v.Dir, err)
	}
	r := Resolved{Variant: v, ContentHash: hash}
	if rev, err := exec.Command("git", "-C", v.Dir, "rev-parse", "HEAD").Output(); err == nil {
		r.Revision = strings.TrimSpace(string(rev))
		st, _ := exec.Command("git", "-C", v.Dir, "status", "--porcelain").Output()
		r.Dirty = len(bytes.TrimSpace(st)) > 0
	}
	return r, nil
}

// modulePath returns the module path a go.mod declares.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// dirHash hashes the files of a local checkout that a build reads: Go, C,
// assembly and module files, outside hidden directories and testdata.
func dirHash(dir string) (string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(name) {
		case ".go", ".c", ".h", ".s", ".S", ".cc", ".cpp", ".syso":
			if !strings.HasSuffix(name, "_test.go") {
				files = append(files, p)
			}
		case ".mod", ".sum":
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash the checkout: %w", err)
	}
	sort.Strings(files)
	return hashFiles("", dir, files)
}

// BuildVariant returns the runner binary of group built with the module of
// r at r's version or checkout: the sqlbench module's go.mod and go.sum are
// copied beside the binary cache, edited (a require of the release, or a
// replace to the checkout) and given to the build with -modfile, so the
// source tree is never touched. The binary is cached by everything it is
// built from, the edited module files and the checkout's content included,
// so two versions never share a binary and an edited checkout is rebuilt.
// A build that fails (a version whose API no longer fits the target's
// code) returns the compiler's first error.
func (b *Builder) BuildVariant(ctx context.Context, group string, cgo bool, r Resolved) (string, error) {
	dir := filepath.Join(b.Cache, "variants")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	work, err := os.MkdirTemp(dir, "modfile-*")
	if err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	defer os.RemoveAll(work)
	modfile := filepath.Join(work, "variant.mod")
	for src, dst := range map[string]string{"go.mod": modfile, "go.sum": filepath.Join(work, "variant.sum")} {
		data, err := os.ReadFile(filepath.Join(b.Src, src))
		if err != nil {
			return "", fmt.Errorf("variant %s: %w", r, err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return "", fmt.Errorf("variant %s: %w", r, err)
		}
	}
	edit := []string{"mod", "edit", "-modfile=" + modfile}
	if r.Dir != "" {
		edit = append(edit, "-replace="+r.Module+"="+r.Dir)
	} else {
		edit = append(edit, "-require="+r.Module+"@"+r.Version, "-dropreplace="+r.Module)
	}
	for _, own := range r.Own { // a checkout has none but those of With
		edit = append(edit, "-require="+own)
	}
	if err := b.goRun(ctx, b.Src, edit...); err != nil {
		return "", fmt.Errorf("variant %s: %w", r, err)
	}
	// The module graph the edit makes, with the sums it needs (go.sum
	// holds only the sqlbench module's own), is settled before the cache
	// key is taken from it: go mod tidy reads every package of the module,
	// tests included, so `go list -deps` of the runner is used instead.
	if err := b.goRun(ctx, b.Src, "list", "-modfile="+modfile, "-mod=mod", "-deps", "-tags", "sqlbench_"+group,
		RunnerPackage); err != nil {
		return "", fmt.Errorf("variant %s: %w", r, err)
	}
	prefix := "variant\x00" + r.String() + "\x00" + r.ContentHash + "\x00"
	verKey, err := b.variantKey(ctx, group, prefix, []string{modfile, filepath.Join(work, "variant.sum")})
	if err != nil {
		return "", err
	}
	bin := filepath.Join(b.Cache, fmt.Sprintf("sqlbench-runner-%s-%s", group, verKey))
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if b.Log != nil {
		fmt.Fprintf(b.Log, "building runner %q with %s...\n", group, r)
	}
	out, err := b.compile(ctx, bin, cgo, "-modfile="+modfile, "-mod=readonly", "-tags", "sqlbench_"+group)
	if err != nil {
		if out == "" {
			return "", err
		}
		return "", fmt.Errorf("build runner %q with %s: %s", group, r, firstCompileError(out))
	}
	return bin, nil
}

// variantKey is the cache key of a variant binary: the runner source's
// key, then the edited module files.
func (b *Builder) variantKey(ctx context.Context, group, prefix string, modfiles []string) (string, error) {
	ver, err := exec.CommandContext(ctx, b.goCmd(), "env", "GOVERSION").Output()
	if err != nil {
		return "", fmt.Errorf("building the Go runners needs the Go toolchain (%s): %w", b.goCmd(), err)
	}
	src, err := sourceKey(b.Src, group, strings.TrimSpace(string(ver)))
	if err != nil {
		return "", err
	}
	return hashFiles(prefix+src+"\x00", filepath.Dir(modfiles[0]), modfiles)
}

// goRun runs the go command in dir, returning its last line on failure.
func (b *Builder) goRun(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, b.goCmd(), args...)
	cmd.Dir = dir
	cmd.Env = buildEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go %s: %s", args[0]+" "+args[1], firstLine(strings.TrimSpace(string(out))))
	}
	return nil
}

func (b *Builder) goCmd() string {
	if b.Go == "" {
		return "go"
	}
	return b.Go
}

// buildEnv is this process's environment for the go command, with
// -modfile and -mod taken out of GOFLAGS (a user's GOFLAGS=-modfile would
// otherwise make every variant resolve to one module set) and extra added.
func buildEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			var keep []string
			for _, f := range strings.Fields(v) {
				if !strings.HasPrefix(f, "-modfile") && !strings.HasPrefix(f, "-mod=") {
					keep = append(keep, f)
				}
			}
			kv = "GOFLAGS=" + strings.Join(keep, " ")
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// firstCompileError returns the first line of go build's output that
// names a file position (the compiler's first error), else its last line.
func firstCompileError(out string) string {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if strings.Contains(l, ".go:") {
			return l
		}
	}
	return lastLine(out)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(l)
}
