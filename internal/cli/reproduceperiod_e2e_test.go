package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReproduceSqinnGoAsPublished reproduces the Sqinn-Go study at smoke
// size on its period drivers: mattn at the version the published program
// pinned, built from the module proxy as a version target, its cells
// measured and set beside the published figures; crawshaw's period version
// being the pinned one, the catalogue's; each said in the what-differs
// lines and recorded in the results file.
func TestReproduceSqinnGoAsPublished(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "study.txt")
	args := []string{"reproduce", "sqinn-go", "--as-published", "--quick", "-o", out, "--cache", cache}
	code := Main(context.Background(), args, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	conf := map[string]string{}
	for _, c := range cfg.Config {
		conf[c.Key] = string(c.Value)
	}
	if !strings.HasPrefix(conf["mattn@v2.0.3+incompatible-variant"],
		"github.com/mattn/go-sqlite3@v2.0.3+incompatible ") ||
		!strings.Contains(conf["sqlbench-command"], "--as-published") {
		t.Errorf("the period version is not recorded: %q, command %q", conf["mattn@v2.0.3+incompatible-variant"],
			conf["sqlbench-command"])
	}
	b := conf["reproduce-builds"]
	if !strings.Contains(b, "as published: mattn (github.com/mattn/go-sqlite3 v2.0.3+incompatible)") ||
		!strings.Contains(b, "as published: crawshaw (crawshaw.io/sqlite v0.3.2, the pinned version)") {
		t.Errorf("reproduce-builds line %q", b)
	}
	period, catalogue := 0, 0
	for name := range runs {
		switch {
		case strings.Contains(name, "/driver=mattn@v2.0.3+incompatible/"):
			period++
		case strings.Contains(name, "/driver=mattn/"):
			catalogue++
		}
	}
	if period == 0 || catalogue != 0 {
		t.Errorf("%d cells of the period mattn, %d of the catalogue's: %v", period, catalogue, runs)
	}
	text := stdout.String()
	if !strings.Contains(text, "as published: mattn runs as mattn@v2.0.3+incompatible") ||
		!strings.Contains(text, "as published: crawshaw runs as the catalogue's crawshaw.io/sqlite v0.3.2") ||
		strings.Contains(text, "not reproduced: the 2020 versions") {
		t.Errorf("what differs does not name the period versions:\n%s", text)
	}
	i := strings.Index(text, "test / comparison  ")
	if i < 0 || !strings.Contains(text[i:], "crawshaw / mattn") ||
		strings.Contains(text, " 0 of 26 comparisons measured") {
		t.Errorf("the published table measures no period comparison:\n%s", text)
	}
}

// TestDBI2023SQLiteDriversRunOneSQLite builds dbi-2023's default mattn (on
// gosqlite's SQLite amalgamation), runs it beside gosqlite and reads the
// SQLite version each reported (SELECT sqlite_version(), the results
// file's TARGET-sqlite lines): they must be one version, as in the study.
func TestDBI2023SQLiteDriversRunOneSQLite(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	p, err := newStudyPlan(studyOptions{Study: "dbi-2023", Cache: cache}, env.session())
	if err != nil {
		t.Fatal(err)
	}
	if err := prepareBuilds(context.Background(), p, env.Stderr); err != nil || len(p.Builds) != 1 {
		t.Fatalf("prepare: %v, builds %v, gaps %v", err, p.Builds, p.Gaps)
	}
	b := p.Builds[0]
	out := filepath.Join(t.TempDir(), "r.txt")
	code := Main(context.Background(), []string{"run", "--db", "sqlite", "--targets", "eatonphil," + b.element(),
		"--workloads", "BulkInsert/shape=3x8/path=prepared/args=bytes", "--quick", "--count", "1", "-o", out,
		"--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	_, cfg := readRuns(t, out)
	conf := map[string]string{}
	for _, c := range cfg.Config {
		conf[c.Key] = string(c.Value)
	}
	gosqlite, mattn := conf["eatonphil-sqlite"], conf[b.name()+"-sqlite"]
	if gosqlite == "" || mattn != gosqlite {
		t.Errorf("gosqlite runs SQLite %q, %s %q: want one version", gosqlite, b.name(), mattn)
	}
}

// TestAsPublishedBuildsRunTodaysAdapters builds the period versions
// reproduce runs by default whose adapters sqlbench grows with its
// workloads — Go-MySQL-Driver v1.1.0 through the connector shim
// (sqlbench2-2013), pgx v5.4.3 (dbi-2023), go-sqlite-bench's mattn,
// modernc, ncruces, gosqlite and zombiezen (on modernc v1.38.2) — and runs
// one run of each study's cells:
// every period build's cells measured, no period target skipped, every
// comparison measured (go-sqlite-bench: but sqinn's). A call an adapter gains that the release (or its shim)
// lacks fails here, not in a user's reproduction (the batch family's
// MultiStatements and PgConn.Deallocate once did).
func TestAsPublishedBuildsRunTodaysAdapters(t *testing.T) {
	for _, tc := range []struct {
		study string
		cells []string
	}{
		{"sqlbench2-2013", []string{"/driver=go-sql-driver@local-v1.1.0-edited/"}},
		{"dbi-2023", []string{"/driver=pgx@v5.4.3/api=native/"}},
		// reproduce's default builds for its largest study (its sqinn
		// cells need the sqinn program, which a plain clone lacks: not
		// counted).
		{"go-sqlite-bench", []string{"/driver=mattn@v1.14.32/", "/driver=modernc@v1.38.2/",
			"/driver=ncruces@local-v0.27.1-edited/", "/driver=eatonphil@v0.10.0/", "/driver=zombiezen@v1.4.2/"}},
	} {
		t.Run(tc.study, func(t *testing.T) {
			env, stdout, stderr, cache, _ := realEnv(t)
			out := filepath.Join(t.TempDir(), "study.txt")
			code := Main(context.Background(), []string{"reproduce", tc.study, "--quick", "--count",
				"1", "-o", out, "--cache", cache}, env)
			skipped := regexp.MustCompile(`(?m)^skipped [^:]*@`) // a period build's target
			if code != ExitOK || skipped.MatchString(stderr.String()) {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			runs, _ := readRuns(t, out)
			for _, cell := range tc.cells {
				period := 0
				for name := range runs {
					if strings.Contains(name, cell) {
						period++
					}
				}
				if period == 0 {
					t.Errorf("no cell of the period build %s: %v", cell, runs)
				}
			}
			if tc.study == "go-sqlite-bench" {
				// zombiezen's runner linked the program's modernc.
				data, err := os.ReadFile(out)
				want := regexp.MustCompile(
					`(?m)^zombiezen@v1\.4\.2-variant: .*built with modernc\.org/sqlite@v1\.38\.2`)
				if err != nil || !want.Match(data) {
					t.Errorf("no zombiezen@v1.4.2-variant line built with modernc v1.38.2 (%v)", err)
				}
				return // sqinn's comparisons need its program
			}
			for _, line := range strings.Split(stdout.String(), "\n") {
				if strings.Contains(line, "comparisons measured") {
					var n, of int
					if _, err := fmt.Sscanf(strings.TrimSpace(line), "%d of %d", &n, &of); err != nil || n != of ||
						n == 0 {
						t.Errorf("not every comparison measured: %q", line)
					}
				}
			}
		})
	}
}
