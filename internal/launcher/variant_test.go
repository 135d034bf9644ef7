package launcher

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testBuilder returns a Builder of this checkout's runner source with a
// binary cache of the test's own.
func testBuilder(t *testing.T) *Builder {
	t.Helper()
	src, err := FindSource(".")
	if err != nil {
		t.Fatal(err)
	}
	return &Builder{Src: src, Cache: t.TempDir()}
}

// moduleVersion returns the version of module that the Go binary bin was
// built with, as go version -m reads it from the binary.
func moduleVersion(t *testing.T, bin, module string) string {
	t.Helper()
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) < 3 || f[0] != "dep" || f[1] != module {
			continue
		}
		// A replaced module's next line is "=> DIR" (or "=> MODULE VERSION").
		if i+1 < len(lines) {
			if r := strings.Fields(lines[i+1]); len(r) >= 2 && r[0] == "=>" {
				return r[1]
			}
		}
		return f[2]
	}
	return ""
}

func TestVariantsAreBuiltAgainstTheirOwnModuleVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three runners")
	}
	b := testBuilder(t)
	t.Setenv("GOFLAGS", "-modfile="+filepath.Join(t.TempDir(), "elsewhere.mod")) // must not steer the builds
	ctx := context.Background()
	const pgx = "github.com/jackc/pgx/v5"

	if _, err := b.Resolve(ctx, Variant{Module: pgx, Version: "v5.99.1"}); err == nil ||
		!strings.Contains(err.Error(), "v5.99.1 does not resolve") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a version the proxy lacks: err = %v, want one line saying it does not resolve", err)
	}
	old, err := b.Resolve(ctx, Variant{Module: pgx, Version: "v5.5.5"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(old.Sum, "h1:") || !strings.Contains(old.Record(), "v5.5.5 h1:") {
		t.Errorf("record %q: want the version and its sum", old.Record())
	}
	oldBin, err := b.BuildVariant(ctx, "postgres", false, old)
	if err != nil {
		t.Fatal(err)
	}
	if got := moduleVersion(t, oldBin, pgx); got != "v5.5.5" {
		t.Errorf("the v5.5.5 runner links pgx %s", got)
	}
	again, err := b.BuildVariant(ctx, "postgres", false, old)
	if err != nil || again != oldBin {
		t.Errorf("the same variant built again: %s, %v; want the cached %s", again, err, oldBin)
	}

	// A local checkout: a copy of v5.5.5's source, edited between builds.
	dir := filepath.Join(t.TempDir(), "pgx")
	// CopyFS writes the module cache's read-only files writable.
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(modCache(t), "github.com/jackc/pgx/v5@v5.5.5"))); err != nil {
		t.Fatal(err)
	}
	local, err := b.Resolve(ctx, Variant{Module: pgx, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	localBin, err := b.BuildVariant(ctx, "postgres", false, local)
	if err != nil {
		t.Fatal(err)
	}
	if localBin == oldBin {
		t.Fatal("the checkout and the release share a binary")
	}
	if got := moduleVersion(t, localBin, pgx); got != dir {
		t.Errorf("the checkout's runner links pgx from %q, want %s", got, dir)
	}
	f := filepath.Join(dir, "conn.go")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(data, []byte("\nfunc sqlbenchEdited() {}\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	edited, err := b.Resolve(ctx, Variant{Module: pgx, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if edited.ContentHash == local.ContentHash {
		t.Fatal("an edit left the checkout's content hash as it was")
	}
	// An edit that no longer compiles fails that build with the
	// compiler's first error, naming the file.
	if err := os.WriteFile(f, append(data, []byte("\nfunc broken() { undefinedName() }\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	broken, err := b.Resolve(ctx, Variant{Module: pgx, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.BuildVariant(ctx, "postgres", false, broken); err == nil ||
		!strings.Contains(err.Error(), "conn.go:") || !strings.Contains(err.Error(), "undefinedName") {
		t.Errorf("a checkout that does not compile: err = %v, want the compiler's first error", err)
	}
}

func TestResolveRefusesADirectoryOfAnotherModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := &Builder{Src: ".", Cache: t.TempDir()}
	_, err := b.Resolve(context.Background(), Variant{Module: "github.com/jackc/pgx/v5", Dir: dir})
	if err == nil || !strings.Contains(err.Error(), `declares "example.com/other"`) {
		t.Errorf("err = %v, want it to name the module the directory declares", err)
	}
	_, err = b.Resolve(context.Background(),
		Variant{Module: "github.com/jackc/pgx/v5", Dir: filepath.Join(dir, "missing")})
	if err == nil || !strings.Contains(err.Error(), "no go.mod there") {
		t.Errorf("err = %v, want it to say there is no go.mod", err)
	}
}

// modCache is the Go module cache's directory.
func modCache(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// TestReleaseVariantTakesItsOwnRequirements: a release is built with the
// versions its own go.mod names for what sqlbench requires only
// indirectly, as a program depending on that release alone would be:
// modernc.org/sqlite v1.38.2 (go-sqlite-bench's) with its libc v1.66.3,
// which modernc requires exactly, not the libc of sqlbench's newer
// modernc; a requirement sqlbench has itself is kept.
func TestReleaseVariantTakesItsOwnRequirements(t *testing.T) {
	b := testBuilder(t)
	r, err := b.Resolve(context.Background(), Variant{Module: "modernc.org/sqlite", Version: "v1.38.2"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Own, "modernc.org/libc@v1.66.3") {
		t.Errorf("own requirements %v, want modernc.org/libc@v1.66.3", r.Own)
	}
	if !strings.Contains(r.Record(), "with its own") || !strings.Contains(r.Record(), "modernc.org/libc@v1.66.3") {
		t.Errorf("record %q: want the requirements it was built with", r.Record())
	}
	// Written out: main requires a and b indirectly and c directly; the
	// release wants a and c at other versions and b at the same.
	main := "module m\n\nrequire (\n\tex.com/c v1.5.0\n\tex.com/a v1.2.0 // indirect\n\tex.com/b v1.0.0 // indirect\n" +
		")\n"
	release := "module r\n\nrequire (\n\tex.com/a v1.1.0\n\tex.com/b v1.0.0\n\tex.com/c v1.0.0\n)\n"
	got, err := ownRequirements([]byte(main), []byte(release))
	if err != nil || !slices.Equal(got, []string{"ex.com/a@v1.1.0"}) {
		t.Errorf("own requirements %v, %v; want [ex.com/a@v1.1.0]", got, err)
	}
}

// TestVariantBuiltWithAnotherModulesRelease: zombiezen v1.4.2 built with
// modernc.org/sqlite v1.38.2, as go-sqlite-bench's program built it, links
// that release's SQLite and the libc it requires exactly (v1.66.3, above
// zombiezen's own v1.65.7), not go.mod's; the record says so. A with that
// is not module@version, or not served, is refused.
func TestVariantBuiltWithAnotherModulesRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a runner")
	}
	b := testBuilder(t)
	ctx := context.Background()
	r, err := b.Resolve(ctx, Variant{Module: "zombiezen.com/go/sqlite", Version: "v1.4.2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"modernc.org/sqlite", "modernc.org/sqlite@latest", "modernc.org/sqlite@v1.99.99"} {
		if _, err := b.With(ctx, r, []string{bad}); err == nil {
			t.Errorf("with %q accepted", bad)
		}
	}
	w, err := b.With(ctx, r, []string{"modernc.org/sqlite@v1.38.2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"modernc.org/sqlite@v1.38.2", "modernc.org/libc@v1.66.3"} {
		if !slices.Contains(w.Own, want) {
			t.Errorf("requires %v, want %s", w.Own, want)
		}
	}
	if rec := w.Record(); !strings.Contains(rec, "built with modernc.org/sqlite@v1.38.2") {
		t.Errorf("record %q does not say what it was built with", rec)
	}
	bin, err := b.BuildVariant(ctx, "purego", false, w)
	if err != nil {
		t.Fatal(err)
	}
	for module, want := range map[string]string{"zombiezen.com/go/sqlite": "v1.4.2", "modernc.org/sqlite": "v1.38.2",
		"modernc.org/libc": "v1.66.3"} {
		if got := moduleVersion(t, bin, module); got != want {
			t.Errorf("%s linked at %s, want %s", module, got, want)
		}
	}
}
