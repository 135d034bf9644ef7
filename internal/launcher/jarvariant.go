package launcher

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// versionProperty returns the pom.xml property that holds the version of
// the artifact of module ("group:artifact"): the property its
// dependency's <version>${...}</version> names.
func versionProperty(pom []byte, module string) (string, error) {
	_, artifact, ok := strings.Cut(module, ":")
	if !ok {
		return "", fmt.Errorf("%q is not a Maven group:artifact", module)
	}
	re := regexp.MustCompile(`<artifactId>` + regexp.QuoteMeta(artifact) +
		`</artifactId>\s*<version>\$\{([A-Za-z0-9._-]+)\}</version>`)
	m := re.FindSubmatch(pom)
	if m == nil {
		return "", fmt.Errorf("the JDBC runner's pom.xml takes no version property for %s", module)
	}
	return string(m[1]), nil
}

// ResolveVersion checks that Maven Central (through Maven) serves module
// ("group:artifact") at version, before anything is built; its error is
// one line naming the artifact and Maven's reason.
func (b *JarBuilder) ResolveVersion(ctx context.Context, module, version string) error {
	cmd := exec.CommandContext(ctx, b.mvn(), "-q", "-B", "-Dstyle.color=never", "dependency:get",
		"-Dartifact="+module+":"+version, "-Dtransitive=false")
	cmd.Dir = os.TempDir() // dependency:get needs no project
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s:%s does not resolve: %s", module, version, mavenError(string(out)))
	}
	return nil
}

// BuildVersion returns the runner jar built with module ("group:artifact")
// at version instead of the version pom.xml pins, by setting the pom's
// version property of that artifact on Maven's command line; the jar is
// cached by the source's key, the property and the version.
func (b *JarBuilder) BuildVersion(ctx context.Context, module, version string) (string, error) {
	dir := filepath.Join(b.Src, JDBCDir)
	pom, err := os.ReadFile(filepath.Join(dir, "pom.xml"))
	if err != nil {
		return "", fmt.Errorf("the JDBC runner's pom.xml: %w", err)
	}
	prop, err := versionProperty(pom, module)
	if err != nil {
		return "", err
	}
	ver, err := exec.CommandContext(ctx, b.java(), "-version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("a JDK is needed to run the JDBC runner: %w", err)
	}
	key, err := jarKey(dir, string(ver)+"\x00"+prop+"="+version)
	if err != nil {
		return "", err
	}
	jar := filepath.Join(b.Cache, "sqlbench-runner-jdbc-"+key+".jar")
	if _, err := os.Stat(jar); err == nil {
		return jar, nil
	}
	if err := os.MkdirAll(b.Cache, 0o755); err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	if b.Log != nil {
		fmt.Fprintf(b.Log, "building the JDBC runner with %s:%s...\n", module, version)
	}
	build, err := os.MkdirTemp(b.Cache, "jdbc-build-")
	if err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	defer os.RemoveAll(build)
	cmd := exec.CommandContext(ctx, b.mvn(), "-q", "-B", "-Dstyle.color=never", "-f", filepath.Join(dir, "pom.xml"),
		"-DskipTests", "-Dsqlbench.buildDir="+build, "-D"+prop+"="+version, "package")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("build the JDBC runner with %s:%s: %s", module, version, mavenError(out.String()))
	}
	if err := os.Rename(filepath.Join(build, "sqlbench-jdbc.jar"), jar); err != nil {
		return "", fmt.Errorf("runner cache: %w", err)
	}
	return jar, nil
}

func (b *JarBuilder) mvn() string {
	if b.Mvn == "" {
		return "mvn"
	}
	return b.Mvn
}
