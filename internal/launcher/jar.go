package launcher

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// JDBCDir is the JDBC runner's Maven module, relative to the source root.
const JDBCDir = "jdbc"

// jvmFlags returns the flags every JDBC runner process starts with: a fixed,
// pre-touched heap, so that heap growth and first-touch page faults do not
// land in timed runs. The runner records them in the results file.
func jvmFlags() []string { return []string{"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"} }

// JarBuilder builds the JDBC runner (one shaded jar for every JDBC target)
// with Maven and caches it beside the Go runners. A jar is reused while the
// module's sources, its pom.xml and the JDK are unchanged.
type JarBuilder struct {
	// Src is the sqlbench source root; Cache is where jars are kept.
	Src, Cache string
	// Java and Mvn are the java and mvn commands (default "java", "mvn").
	Java, Mvn string
	// Log receives one line per build.
	Log io.Writer
	// Origin says where Src comes from in that line (Source.String).
	Origin string
}

func (b *JarBuilder) java() string {
	if b.Java == "" {
		return "java"
	}
	return b.Java
}

// Build returns the path of the runner jar, building it first if the cache
// has none for the current source and JDK. Maven downloads the drivers from
// Maven Central into its local repository on first use; later builds need
// no network.
func (b *JarBuilder) Build(ctx context.Context) (string, error) {
	jar, ok, err := b.Cached(ctx)
	if err != nil || ok {
		return jar, err
	}
	if err := os.MkdirAll(b.Cache, 0o755); err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	if b.Log != nil {
		fmt.Fprintf(b.Log, "building the JDBC runner with Maven%s (first use, or its source changed)...\n",
			from(b.Origin))
	}
	build, err := os.MkdirTemp(b.Cache, "jdbc-build-")
	if err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	defer os.RemoveAll(build)
	mvn := b.Mvn
	if mvn == "" {
		mvn = "mvn"
	}
	// The build goes to a directory of its own, so that it never races a
	// build or test run in the source tree.
	cmd := exec.CommandContext(ctx, mvn, "-q", "-B", "-Dstyle.color=never", "-f",
		filepath.Join(b.Src, JDBCDir, "pom.xml"),
		"-DskipTests", "-Dsqlbench.buildDir="+build, "package")
	cmd.Dir = filepath.Join(b.Src, JDBCDir)
	began := time.Now()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("build the JDBC runner: %v: %s", err, mavenError(out.String()))
	}
	if err := os.Rename(filepath.Join(build, "sqlbench-jdbc.jar"), jar); err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	RecordBuild(b.Cache, JarRecord, time.Since(began))
	return jar, nil
}

// JarRecord is the name the JDBC runner's build time is kept under in the
// cache (Recorded).
const JarRecord = "jdbc"

// Cached returns the path the runner jar has in the cache for the current
// source and JDK, and whether it is there: whether Build would build it.
// It builds nothing.
func (b *JarBuilder) Cached(ctx context.Context) (jar string, ok bool, err error) {
	// java -version writes to stderr.
	ver, err := exec.CommandContext(ctx, b.java(), "-version").CombinedOutput()
	if err != nil {
		return "", false, fmt.Errorf("a JDK is needed to run the JDBC runner: %w", err)
	}
	key, err := jarKey(filepath.Join(b.Src, JDBCDir), string(ver))
	if err != nil {
		return "", false, err
	}
	jar = filepath.Join(b.Cache, "sqlbench-runner-jdbc-"+key+".jar")
	_, err = os.Stat(jar)
	return jar, err == nil, nil
}

// SmokeJITWarmup is the system property a smoke run (--quick) starts the
// JDBC runner with: at most one second of JIT warm-up per cell instead of
// ten, since a smoke run checks that every cell works, not how fast it is
// once compiled; the runner records the warm-up it used.
const SmokeJITWarmup = "-Dsqlbench.jit.maxMillis=1000"

// ColdJIT is the system property that starts the JDBC runner with no JIT
// warm-up at all: a cell's first timed run is its first in the JVM, as in
// a published Java program that ran cold (session.Config.ColdJVM); the
// runner records it in its jdbc-jit-warmup line.
const ColdJIT = "-Dsqlbench.jit.maxMillis=0"

// PreparedExecWithSQL is the system property that makes the JDBC runner's
// PreparedExec call ps.execute(sql), as the SQL-Benchmark Java program
// did (session.Config.JDBCPreparedExecSQL).
const PreparedExecWithSQL = "-Dsqlbench.preparedExec=with-sql"

// Command returns the command line that starts a JDBC runner from jar,
// with any extra JVM options (system properties) before -jar.
func (b *JarBuilder) Command(jar string, opts ...string) []string {
	cmd := append(append([]string{b.java()}, jvmFlags()...), opts...)
	return append(cmd, "-jar", jar)
}

// jarKey hashes everything the jar is built from: pom.xml, every file under
// src/main, and the JDK's version.
func jarKey(dir, javaVersion string) (string, error) {
	files := []string{filepath.Join(dir, "pom.xml")}
	main := filepath.Join(dir, "src", "main")
	err := filepath.WalkDir(main, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash the JDBC runner source: %w", err)
	}
	sort.Strings(files[1:])
	key, err := hashFiles("jdbc\x00"+strings.TrimSpace(javaVersion)+"\x00", dir, files)
	if err != nil {
		return "", fmt.Errorf("hash the JDBC runner source: %w", err)
	}
	return key, nil
}

// ansi matches a terminal colour sequence.
var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// mavenError picks the most telling line of Maven's output: the first
// "[ERROR]" line, else the last line, without the colour codes Maven
// writes even in batch mode.
func mavenError(s string) string {
	s = ansi.ReplaceAllString(s, "")
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "[ERROR]") {
			return strings.TrimSpace(strings.TrimPrefix(l, "[ERROR]"))
		}
	}
	return lastLine(s)
}
