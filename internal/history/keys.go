package history

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// machineKeys are the configuration lines that name a machine: two
// sessions whose lines differ ran on different machines, and their cells
// are never one series.
func machineKeys() []string { return []string{"goos", "goarch", "cpu", "cores", "memory", "os"} }

// envKeys are the lines of a machine's software that may change under a
// series (a Go or kernel upgrade): kept with each point and shown, never a
// reason to split a series.
func envKeys() []string { return []string{"go", "kernel"} }

// cellKey is how one run of a cell is filed: the machine and settings it
// ran under, the target it ran, and the cell.
type cellKey struct {
	// Machine and Settings are "key: value" lines, sorted.
	Machine, Settings string
	// Name is the cell, the benchmark name without "Benchmark"
	// ("SimpleQuery/db=sqlite/driver=mattn/api=sql"); Workload its first
	// part; Driver its driver= part ("mattn@v1.14.22").
	Name, Workload, Driver string
	// Target is the driver's module line(s) ("github.com/mattn/go-sqlite3
	// v1.14.52"), Env the envKeys lines: facts of the point.
	Target, Env string
}

// keyOf files r, a result read by benchfile.Read.
func keyOf(r *benchfmt.Result) cellKey {
	k := cellKey{Name: r.Name.String(), Workload: string(r.Name.Base())}
	_, parts := r.Name.Parts()
	var db, api string
	for _, p := range parts {
		key, val, ok := strings.Cut(strings.TrimPrefix(string(p), "/"), "=")
		if !ok {
			continue
		}
		switch key {
		case "driver":
			k.Driver = val
		case "db":
			db = val
		case "api":
			api = val
		}
	}
	var machine, settings, target, env []string
	for _, c := range r.Config {
		key, line := c.Key, c.Key+": "+string(c.Value)
		switch {
		case !c.File || benchfile.IsSessionFact(key):
		case slices.Contains(machineKeys(), key):
			machine = append(machine, line)
		case slices.Contains(envKeys(), key):
			env = append(env, line)
		case targetLine(key, k.Driver) || targetLine(key, k.Driver+"-"+api):
			target = append(target, line)
		case settingLine(key, db, api, k.Driver):
			settings = append(settings, line)
		}
	}
	for _, s := range [][]string{settings, target, env} {
		slices.Sort(s)
	}
	slices.SortFunc(machine, func(a, b string) int { return machineOrder(a) - machineOrder(b) })
	k.Machine, k.Settings = strings.Join(machine, "\n"), strings.Join(settings, "\n")
	k.Target, k.Env = strings.Join(target, "\n"), strings.Join(env, "; ")
	return k
}

// machineOrder is the place of a machine line's key in machineKeys.
func machineOrder(line string) int {
	k, _, _ := strings.Cut(line, ": ")
	return slices.Index(machineKeys(), k)
}

// targetLine reports whether key is a line of the driver's build: its
// module and, for a variant, what it was built from.
func targetLine(key, driver string) bool {
	rest, ok := strings.CutPrefix(key, driver+"-")
	return ok && driver != "" && (rest == "module" || rest == "variant")
}

// settingLine reports whether key is a setting of a cell of driver on db
// through api: the session header's settings that change what a cell
// measures (benchfile.MeasuredHeaderKey), the lines of the cell's own
// database (sqlite-*, postgres-*: its settings, server version and
// profile), of its driver (the SQLite it bundles, its session settings),
// and of the JVM for a JDBC cell. Lines of the other databases and
// drivers a session ran are not: a cell's series does not split over
// what else its sessions ran.
func settingLine(key, db, api, driver string) bool {
	switch {
	case benchfile.MeasuredHeaderKey(key):
		return true
	case db != "" && strings.HasPrefix(key, db+"-"):
		return !strings.HasSuffix(key, "-server") && !strings.HasSuffix(key, "-server-cpu")
	case driver != "" && strings.HasPrefix(key, driver+"-"):
		return strings.HasSuffix(key, "-sqlite") || strings.HasSuffix(key, "-sqlite-session") ||
			strings.HasSuffix(key, "-spin")
	case api == "jdbc":
		return key == "jdbc-jvm" || key == "jdbc-jvm-flags"
	}
	return false
}

// hashOf is the id of a text in the store.
func hashOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:12])
}
