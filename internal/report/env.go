package report

import (
	"slices"
	"strings"
)

// EnvGroup is a titled group of configuration lines for the environment
// section of a report.
type EnvGroup struct {
	Title string
	Lines []Config
}

// envGroupTitles names the groups of the environment section, in order;
// envGroupOf says which group a key belongs to, the last taking the rest.
func envGroupTitles() []string {
	return []string{"Machine", "Go", "Servers", "Drivers", "SQLite session", "Run", "Other"}
}

func envGroupOf(key string) int {
	switch {
	case slices.Contains([]string{"goos", "goarch", "cpu", "cores", "memory", "kernel", "os", "cpu-governor",
		"clocksource", "pin", "idle-latency"}, key) || key == "wakeup" || strings.HasPrefix(key, "wakeup-"):
		return 0
	case key == "go" || key == "orchestrator-go":
		return 1
	case strings.HasPrefix(key, "mariadb-") || strings.HasPrefix(key, "postgres-"):
		return 2
	case strings.HasSuffix(key, "-module") || strings.HasSuffix(key, "-sqlite") || strings.HasSuffix(key, "-version") ||
		strings.HasSuffix(key, "-jdbc"):
		return 3
	case strings.HasPrefix(key, "sqlite-"):
		return 4
	case strings.HasPrefix(key, "sqlbench") || slices.Contains([]string{"count", "scale", "smoke-scales", "warmup",
		"warmup-all", "timing-thread", "jit-warmup", "started", "gomaxprocs"}, key):
		return 5
	}
	return 6
}

// groupEnv collects the configuration lines of the cells, in order of first
// appearance, grouped by subject. A key with different values in different
// files lists them all, separated by "; ".
func groupEnv(cells []*Cell) []EnvGroup {
	var keys []string
	values := map[string][]string{}
	lastCfg := []Config(nil)
	for _, c := range cells {
		if slices.Equal(c.Config, lastCfg) {
			continue // the common case: every cell of a file
		}
		lastCfg = c.Config
		for _, kv := range c.Config {
			vs, seen := values[kv.Key]
			if !seen {
				keys = append(keys, kv.Key)
			}
			values[kv.Key] = appendNew(vs, kv.Value)
		}
	}
	titles := envGroupTitles()
	groups := make([]EnvGroup, len(titles))
	for i, t := range titles {
		groups[i].Title = t
	}
	for _, k := range keys {
		g := &groups[envGroupOf(k)]
		g.Lines = append(g.Lines, Config{Key: k, Value: strings.Join(values[k], "; ")})
	}
	return slices.DeleteFunc(groups, func(g EnvGroup) bool { return len(g.Lines) == 0 })
}
