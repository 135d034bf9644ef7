package session

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/sqlbench/sqlbench"
	"github.com/sqlbench/sqlbench/internal/launcher"
)

// Version returns sqlbench's version: the module version it was installed
// as (go install .../cmd/sqlbench@v1.2.3), else the VCS revision it was
// built from with "-dirty" when the tree had uncommitted changes, else
// "devel" followed by the key of the embedded runner sources, which
// identifies the build (built with -buildvcs=false, or outside a
// repository).
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return devel()
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return devel()
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return "devel-" + rev + dirty
}

// VersionLines returns what "sqlbench version" prints: the version and Go
// release, the key of the runner sources embedded in the binary (the
// runner cache is keyed by it), and where a session started in dir would
// build its runners from.
func VersionLines(dir string) []string {
	lines := []string{fmt.Sprintf("sqlbench %s (%s)", Version(), runtime.Version())}
	key, err := launcher.EmbeddedKey(sqlbench.RunnerSource())
	if err != nil {
		key = err.Error()
	}
	lines = append(lines, "embedded runner sources: key "+key)
	if src, err := launcher.FindSource(dir); err == nil {
		lines = append(lines, "runners are built from: the source tree "+src+" (found here; preferred for development)")
	} else if os.Getenv("SQLBENCH_SRC") != "" {
		lines = append(lines, "runners cannot be built: "+err.Error())
	} else {
		lines = append(lines, "runners are built from: the embedded sources")
	}
	return lines
}

func devel() string {
	key, err := launcher.EmbeddedKey(sqlbench.RunnerSource())
	if err != nil {
		return "devel"
	}
	return "devel (runner sources " + key + ")"
}
