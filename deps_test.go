package sqlbench_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/targets"
)

// depsDry runs scripts/deps.sh's selection for a sqlbench command line
// (SQLBENCH_DEPS_DRY=1: nothing installed) with env added to a clean
// environment, and returns the packages it names as needed, sorted, and
// its whole output.
func depsDry(t *testing.T, env []string, args ...string) ([]string, string) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"scripts/deps.sh"}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "SQLBENCH_DEPS_DRY=1"}, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("deps.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var pkgs []string
	for _, m := range regexp.MustCompile(`(?m)^needs (\S+) \(`).FindAllStringSubmatch(string(out), -1) {
		pkgs = append(pkgs, m[1])
	}
	slices.Sort(pkgs)
	return pkgs, string(out)
}

// TestDepsInstallOnlyWhatTheCommandNeeds: scripts/sqlbench installs a
// server's package only when sqlbench starts a throwaway one, never for a
// DSN the user gives, a JDK only for a JDBC target named, Chromium only
// for the tests, and nothing for a dry run.
func TestDepsInstallOnlyWhatTheCommandNeeds(t *testing.T) {
	cc := []string{"gcc", "libc6-dev"}
	for _, tc := range []struct {
		args []string
		env  []string
		want []string
	}{
		{[]string{"run"}, nil, cc},
		{[]string{"run", "--quick"}, nil, cc},
		{[]string{"run", "--db", "postgres"}, nil, []string{"postgresql"}},
		{[]string{"run", "--db=mariadb,postgres", "--targets", "pgx*,mysql"}, nil,
			[]string{"mariadb-server", "postgresql"}},
		{[]string{"run", "--dsn", "postgres://u@h/db"}, nil, cc},
		{[]string{"run", "--db", "postgres", "--dsn", "postgres=postgres://u@h/db"}, nil, nil},
		{[]string{"run", "--db", "postgres"}, []string{"SQLBENCH_POSTGRES_DSN=postgres://u@h/db"}, nil},
		{[]string{"run", "--db", "mariadb", "--dsn=mysql=u:p@tcp(h)/db"}, nil, nil},
		{[]string{"run", "--db", "mariadb", "--dry-run"}, nil, nil},
		{[]string{"run", "--targets", "jdbc-sqlite"}, nil, []string{"default-jdk-headless", "maven"}},
		{[]string{"run", "--targets", "modernc,ncruces"}, nil, nil},
		{[]string{"run", "--targets", "-mattn"}, nil, cc},
		{[]string{"run", "--targets", "mattn@v1.14.22"}, nil, cc},
		{[]string{"bisect", "--target", "mattn", "--good", "v1.14.22", "--bad", "v1.14.52"}, nil, cc},
		{[]string{"bisect", "--target=pgx", "--good", "v5.5.5", "--bad", "v5.7.1"}, nil, []string{"postgresql"}},
		{[]string{"bisect", "--target", "zombiezen", "--checkout", "../z", "--good", "a", "--bad", "b"}, nil, nil},
		{[]string{"server", "start", "galera"}, nil, []string{"galera-4", "mariadb-server", "rsync"}},
		{[]string{"server", "start", "postgres"}, nil, []string{"postgresql"}},
		{[]string{"server", "stop", "--all"}, nil, nil},
		{[]string{"list"}, nil, nil},
		{[]string{"reproduce", "sqlbench-2013-osx"}, nil, []string{"default-jdk-headless", "mariadb-server", "maven"}},
		{[]string{"reproduce", "sqlbench-2013-osx", "--dsn", "mariadb=u:p@tcp(h)/db"}, nil,
			[]string{"default-jdk-headless", "maven"}},
		{nil, []string{"SQLBENCH_SERVERS=1"},
			[]string{"chromium", "default-jdk-headless", "galera-4", "gcc", "jq", "libc6-dev", "mariadb-server",
				"maven", "postgresql", "rsync", "valgrind"}},
	} {
		got, out := depsDry(t, tc.env, tc.args...)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v %s: needs %v, want %v\n%s", tc.env, strings.Join(tc.args, " "), got, tc.want, out)
		}
	}
}

// TestDepsSaysWhyJDBCIsSkipped: the default run does not install a JDK for
// its JDBC target, and says so where there is none.
func TestDepsSaysWhyJDBCIsSkipped(t *testing.T) {
	bin := t.TempDir()
	for _, tool := range []string{"go", "awk", "sed", "sort", "ls"} { // what deps.sh runs, java and mvn left out
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(bash, "scripts/deps.sh", "run")
	cmd.Env = []string{"PATH=" + bin, "SQLBENCH_DEPS_DRY=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("deps.sh run: %v\n%s", err, out)
	}
	said := strings.Contains(string(out), "skips without a JDK and Maven: jdbc-sqlite")
	if !said || strings.Contains(string(out), "maven") {
		t.Errorf("deps.sh run without java: want the jdbc-sqlite skip said and no Maven installed:\n%s", out)
	}
}

// TestDepsTargetTableIsTheCatalogue: deps.sh's table of targets (database,
// cgo, JDK) is the catalogue's.
func TestDepsTargetTableIsTheCatalogue(t *testing.T) {
	src, err := os.ReadFile("scripts/deps.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^sqlbench_targets="([^"]*)"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("no sqlbench_targets table in scripts/deps.sh")
	}
	got := strings.Fields(string(m[1]))
	var want []string
	for _, s := range targets.All() {
		e := string(s.DB) + ":" + s.Name
		if s.Cgo {
			e += ":cgo"
		}
		if s.JVM {
			e += ":jvm"
		}
		want = append(want, e)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("scripts/deps.sh sqlbench_targets:\n %v\nthe catalogue:\n %v", got, want)
	}
}

// TestDepsForEveryStudy: for each study, reproduce installs what its
// targets need: a C compiler for a cgo driver, the server of each
// database, a JDK for a JDBC side.
func TestDepsForEveryStudy(t *testing.T) {
	for _, s := range studies.All() {
		var want []string
		add := func(p ...string) {
			for _, q := range p {
				if !slices.Contains(want, q) {
					want = append(want, q)
				}
			}
		}
		for _, name := range s.Targets() {
			spec, ok := targets.Lookup(name)
			if !ok {
				continue
			}
			switch {
			case spec.Cgo:
				add("gcc", "libc6-dev")
			case spec.JVM:
				add("default-jdk-headless", "maven")
			}
			switch spec.DB {
			case bench.MariaDB:
				add("mariadb-server")
			case bench.Postgres:
				add("postgresql")
			}
		}
		slices.Sort(want)
		if got, out := depsDry(t, nil, "reproduce", s.ID); !slices.Equal(got, want) {
			t.Errorf("reproduce %s: needs %v, want %v\n%s", s.ID, got, want, out)
		}
	}
}
