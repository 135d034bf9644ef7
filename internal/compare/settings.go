package compare

import (
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// SettingDiff is a configuration line whose value differs between two
// sets of results in a way that changes what they measure.
type SettingDiff struct {
	Key string
	// Old and New are the values ("" when a set has no such line; several
	// values of one set joined by "; ").
	Old, New string
}

// String names the difference: "scale: 0.1 against 0.01".
func (d SettingDiff) String() string {
	return d.Key + ": " + cmpOr(d.Old, "none") + " against " + cmpOr(d.New, "none")
}

// serverKinds are the prefixes of the configuration lines of a server's
// version, profile and variables.
func serverKinds() []string { return []string{"mariadb-", "postgres-", "tidb-", "galera-"} }

// MeasuredSetting reports whether a configuration key is one whose value
// changes what the cells measure: the run's shape (count, slices, scale,
// the smaller smoke scales, warm-up, whether the timing goroutine kept a
// thread, the JIT warm-up), CPU placement, GOMAXPROCS and the CPUs' idle
// regime (the header's, benchfile.MeasuredHeaderKey), the processor, the
// drivers' modules and versions and the SQLite each bundles, the SQLite
// session settings, the JVM of the JDBC runner, and the servers' versions,
// profiles and variables. A session's own facts (its id, start, command
// line, a server's pid and start-up time) and how a server was found are
// not.
func MeasuredSetting(key string) bool {
	if benchfile.MeasuredHeaderKey(key) || slices.Contains([]string{"cpu", "jdbc-jvm", "jdbc-jvm-flags"}, key) {
		return true
	}
	for _, suf := range []string{"-server", "-server-cpu", "-server-pid", "-server-ready"} {
		if strings.HasSuffix(key, suf) {
			return false
		}
	}
	for _, suf := range []string{"-module", "-version", "-sqlite", "-sqlite-session", "-driver", "-profile"} {
		if strings.HasSuffix(key, suf) {
			return true
		}
	}
	if strings.HasPrefix(key, "sqlite-") {
		return true
	}
	for _, p := range serverKinds() {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// SettingDifferences returns the measured settings (MeasuredSetting) whose
// values differ between old and new, or that only one of them records, in
// key order. Only keys of cells both sets hold count: a driver's version
// line is compared only when both ran that driver.
func SettingDifferences(old, new []*benchfmt.Result) []SettingDiff {
	common := map[string]bool{}
	for _, r := range old {
		common[r.Name.String()] = false
	}
	for _, r := range new {
		if _, ok := common[r.Name.String()]; ok {
			common[r.Name.String()] = true
		}
	}
	values := func(rs []*benchfmt.Result) map[string][]string {
		out := map[string][]string{}
		for _, r := range rs {
			if !common[r.Name.String()] {
				continue
			}
			for _, c := range r.Config {
				if c.File && MeasuredSetting(c.Key) {
					if v := string(c.Value); !slices.Contains(out[c.Key], v) {
						out[c.Key] = append(out[c.Key], v)
					}
				}
			}
		}
		return out
	}
	ov, nv := values(old), values(new)
	var keys []string
	for k := range ov {
		keys = append(keys, k)
	}
	for k := range nv {
		if _, ok := ov[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []SettingDiff
	for _, k := range keys {
		if a, b := strings.Join(ov[k], "; "), strings.Join(nv[k], "; "); a != b {
			out = append(out, SettingDiff{Key: k, Old: a, New: b})
		}
	}
	return out
}
