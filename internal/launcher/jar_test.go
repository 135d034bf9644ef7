package launcher

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/testenv"
)

func TestJarKeyFollowsTheSource(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pom.xml", "<project/>")
	write("src/main/java/A.java", "class A {}")
	k1, err := jarKey(dir, "17")
	if err != nil {
		t.Fatal(err)
	}
	write("src/test/java/ATest.java", "class ATest {}") // tests are not in the jar
	write("target/x.jar", "built")
	if k, _ := jarKey(dir, "17"); k != k1 {
		t.Error("a test or build file changed the key")
	}
	write("src/main/java/A.java", "class A { }")
	k2, _ := jarKey(dir, "17")
	write("pom.xml", "<project></project>")
	k3, _ := jarKey(dir, "17")
	k4, _ := jarKey(dir, "21")
	if k2 == k1 || k3 == k2 || k4 == k3 {
		t.Errorf("keys %s %s %s %s: source, pom and JDK must each change the key", k1, k2, k3, k4)
	}
}

// TestJarBuildCachesAndServes builds the real JDBC runner with Maven (it
// downloads the drivers on the first run on a machine), checks the cache,
// and says hello to it.
func TestJarBuildCachesAndServes(t *testing.T) {
	testenv.Programs(t, "java", "mvn")
	src, err := FindSource(".")
	if err != nil {
		t.Fatal(err)
	}
	b := &JarBuilder{Src: src, Cache: t.TempDir()}
	ctx := context.Background()
	jar, err := b.Build(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(jar)
	again, err := b.Build(ctx)
	if err != nil || again != jar {
		t.Fatalf("second build: %s, %v; want the cached %s", again, err, jar)
	}
	if st2, _ := os.Stat(jar); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("the cached jar was rebuilt")
	}
	if left, _ := filepath.Glob(filepath.Join(b.Cache, "jdbc-build-*")); len(left) != 0 {
		t.Errorf("build directories left in the cache: %v", left)
	}
	cmd := b.Command(jar)
	p, err := Start(cmd[0], cmd[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	reply, err := p.Do(ctx, protocol.Request{Verb: protocol.VerbHello}, time.Minute)
	lines := strings.Join(reply.Lines, "\n")
	if err != nil || reply.Fail != "" || !strings.Contains(lines, "runner-protocol: 3") ||
		!strings.Contains(lines, "jdbc-sqlite") {
		t.Fatalf("hello: %+v, %v", reply, err)
	}
}

func TestJarCommandPutsOptionsBeforeTheJar(t *testing.T) {
	b := &JarBuilder{Java: "/opt/jdk/bin/java"}
	got := strings.Join(b.Command("/c/r.jar", SmokeJITWarmup), " ")
	want := "/opt/jdk/bin/java " + strings.Join(jvmFlags(), " ") + " -Dsqlbench.jit.maxMillis=1000 -jar /c/r.jar"
	if got != want {
		t.Errorf("Command = %q, want %q", got, want)
	}
}

func TestMavenErrorDropsColourCodes(t *testing.T) {
	out := "\x1b[0m\x1b[0m[\x1b[1;31mERROR\x1b[m] Failed to execute goal: boom\n[INFO] done\n"
	if got, want := mavenError(out), "Failed to execute goal: boom"; got != want {
		t.Errorf("mavenError = %q, want %q", got, want)
	}
}
