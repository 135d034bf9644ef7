package launcher

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/protocol"
)

func TestBuildCachesUntilTheSourceChanges(t *testing.T) {
	b := testBuilder(t)
	ctx := context.Background()
	if _, ok, err := b.Cached(ctx, "none"); ok || err != nil {
		t.Fatalf("Cached before any build: %v, %v; want false", ok, err)
	}
	// The runner with no group tag links no targets: quick to build.
	bin, err := b.Build(ctx, "none", false)
	if err != nil {
		t.Fatal(err)
	}
	if cached, ok, err := b.Cached(ctx, "none"); !ok || err != nil || cached != bin {
		t.Errorf("Cached after the build: %s, %v, %v; want %s", cached, ok, err, bin)
	}
	if d, ok := Recorded(b.Cache, "none"); !ok || d <= 0 {
		t.Errorf("the build's time was not recorded: %v, %v", d, ok)
	}
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	again, err := b.Build(ctx, "none", false)
	if err != nil || again != bin {
		t.Fatalf("second build: %s, %v; want the cached %s", again, err, bin)
	}
	if st2, _ := os.Stat(bin); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("the cached runner was rebuilt")
	}

	p, err := Start(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	reply, err := p.Do(ctx, protocol.Request{Verb: protocol.VerbHello}, 10*time.Second)
	if err != nil || reply.Fail != "" || !strings.Contains(strings.Join(reply.Lines, "\n"), "runner-protocol: 3") {
		t.Fatalf("hello: %+v, %v", reply, err)
	}
}

func TestSourceKeyFollowsTheSource(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module "+ModulePath+"\n")
	write("a.go", "package a\n")
	k1, _ := sourceKey(dir, "g", "go1.26")
	write("a_test.go", "package a\n") // tests are not part of a runner
	if k, _ := sourceKey(dir, "g", "go1.26"); k != k1 {
		t.Error("a test file changed the key")
	}
	write("a.go", "package a // changed\n")
	k2, _ := sourceKey(dir, "g", "go1.26")
	k3, _ := sourceKey(dir, "g", "go1.27")
	k4, _ := sourceKey(dir, "h", "go1.26")
	if k2 == k1 || k3 == k2 || k4 == k2 {
		t.Errorf("keys %s %s %s %s: source, Go version and group must each change the key", k1, k2, k3, k4)
	}
	if got, err := FindSource(filepath.Join(dir)); err != nil || got != dir {
		t.Errorf("FindSource = %q, %v", got, err)
	}
	if _, err := FindSource(os.TempDir()); err == nil {
		t.Error("FindSource found a source tree in the temp dir")
	}
}

func TestProcessThatDiesSaysWhy(t *testing.T) {
	p, err := Start("/bin/sh", "-c", "read x; echo 'fatal: driver crashed' >&2; exit 3")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Do(context.Background(), protocol.Request{Verb: protocol.VerbHello}, 10*time.Second)
	if err == nil || !strings.Contains(err.Error(), "fatal: driver crashed") {
		t.Fatalf("err = %v, want the runner's last stderr line", err)
	}
}

func TestProcessThatHangsIsKilled(t *testing.T) {
	p, err := Start("/bin/sh", "-c", "sleep 30")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = p.Do(context.Background(), protocol.Request{Verb: protocol.VerbHello}, 200*time.Millisecond)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	select {
	case <-p.done:
	default:
		t.Error("the hanging runner is still running")
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the time-out took %s", time.Since(start))
	}
}

// TestConcurrentFirstBuildsAllSucceed starts four builds of the same
// runner into an empty cache at once, as sessions started together
// do: all must end with the same complete binary, and no temp file may
// be left.
func TestConcurrentFirstBuildsAllSucceed(t *testing.T) {
	src, err := FindSource(".")
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	type built struct {
		bin string
		err error
	}
	done := make(chan built, 4)
	for range 4 {
		go func() {
			b := &Builder{Src: src, Cache: cache}
			bin, err := b.Build(context.Background(), "none", false)
			done <- built{bin, err}
		}()
	}
	a := <-done
	for range 3 {
		if b := <-done; a.err != nil || b.err != nil || a.bin != b.bin {
			t.Fatalf("concurrent builds: %q %v, %q %v; want one binary, no error", a.bin, a.err, b.bin, b.err)
		}
	}
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temp file left in the cache: %s", e.Name())
		}
	}
	p, err := Start(a.bin)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if reply, err := p.Do(context.Background(), protocol.Request{Verb: protocol.VerbHello},
		10*time.Second); err != nil || reply.Fail != "" {
		t.Fatalf("hello to the built runner: %+v, %v", reply, err)
	}
}
