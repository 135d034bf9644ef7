package session

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/pick"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/targets"
)

// FlagValue is a command-line flag's text parsed straight into a field of
// a Config: a pflag.Value (String, Set, Type) that a front end binds with
// FlagSet.Var, with the words it takes for shell completion. Set returns
// the problem without the flag's name; the front end adds it.
type FlagValue struct {
	text, typ string
	set       func(string) error
	choices   func() []string
	// items are the values given to a repeatable flag (typ stringArray),
	// in order.
	items []string
}

// String returns the flag's text: its default until it is set.
func (v *FlagValue) String() string { return v.text }

// Type names the flag's kind of value in the help.
func (v *FlagValue) Type() string { return v.typ }

// Set parses s into the Config's field.
func (v *FlagValue) Set(s string) error {
	if err := v.set(s); err != nil {
		return err
	}
	v.text = s
	if v.typ == "stringArray" {
		v.items = append(v.items, s)
		v.text = "[" + strings.Join(v.items, ",") + "]"
	}
	return nil
}

// GetSlice returns the values a repeatable flag was given (pflag.SliceValue),
// or the one value of another.
func (v *FlagValue) GetSlice() []string {
	if v.typ == "stringArray" {
		return v.items
	}
	return []string{v.text}
}

// Append sets one more value (pflag.SliceValue).
func (v *FlagValue) Append(s string) error { return v.Set(s) }

// Replace sets the values ss in turn (pflag.SliceValue).
func (v *FlagValue) Replace(ss []string) error {
	v.items = nil
	for _, s := range ss {
		if err := v.Set(s); err != nil {
			return err
		}
	}
	return nil
}

// Choices returns the words the flag takes (a list flag: each item), or
// nil when it takes any.
func (v *FlagValue) Choices() []string {
	if v.choices == nil {
		return nil
	}
	return v.choices()
}

// Defaults returns the Config of a session with every default set: what
// sqlbench run does without flags. cache is where runners are kept
// (launcher.DefaultCache, DefaultCache).
func Defaults() *Config {
	return &Config{
		DBs: []bench.DB{bench.SQLite}, Count: DefaultCount, Slices: DefaultSlices, Scale: DefaultScale,
		Warmup: DefaultWarmup, Timeout: DefaultTimeout, Cache: DefaultCache(), Nets: []string{"tcp", "unix"},
		Profile: servers.ProfileDurable, Pin: DefaultPin, TimingThread: ThreadAuto,
		SQLite: bench.DefaultSQLiteSettings(),
	}
}

// FlagValues returns the values of the flags that set c's fields named in
// words, by flag name, each showing the field's value now as its default:
// db, targets, workloads, net, dsn, profile, cpu, pin, timing-thread,
// idle-latency, measure, baseline, resolution, sqlite-journal and sqlite-sync.
func (c *Config) FlagValues() map[string]*FlagValue {
	dbNames := func() []string { return names(bench.KnownDBs()) }
	return map[string]*FlagValue{
		"db": {text: joinDBs(c.DBs), typ: "string", choices: dbNames, set: func(s string) error {
			c.DBs = nil
			for _, name := range strings.Split(s, ",") {
				db, err := bench.ParseDB(strings.TrimSpace(name))
				if err != nil {
					name = strings.TrimSpace(name)
					return fmt.Errorf("unknown database %q%s", name, pick.DidYouMean(name, dbNames()))
				}
				c.DBs = append(c.DBs, db)
			}
			return nil
		}},
		"targets":   {typ: "string", choices: targets.Names, set: func(s string) error { c.Targets = splitList(s); return nil }},
		"workloads": {typ: "string", choices: workloadChoices, set: func(s string) error { c.Workloads = splitList(s); return nil }},
		"net": {text: strings.Join(c.Nets, ","), typ: "string", choices: func() []string { return []string{"tcp", "unix"} }, set: func(s string) error {
			c.Nets = nil
			for _, n := range strings.Split(s, ",") {
				if n != "tcp" && n != "unix" {
					return fmt.Errorf("unknown transport %q (valid: tcp, unix)", n)
				}
				c.Nets = append(c.Nets, n)
			}
			return nil
		}},
		"dsn": {typ: "stringArray", set: func(s string) error {
			db, d, err := ParseDSNFlag(s)
			if err == nil {
				if c.DSNs == nil {
					c.DSNs = map[bench.DB]string{}
				}
				c.DSNs[db] = d
			}
			return err
		}},
		"profile": {text: string(c.Profile), typ: "string", choices: func() []string { return names(servers.Profiles()) }, set: func(s string) (err error) {
			c.Profile, err = servers.ParseProfile(s)
			return err
		}},
		"cpu": {text: joinInts(c.CPUs), typ: "string", set: func(s string) (err error) {
			c.CPUs, err = ParseCPUs(s)
			return err
		}},
		"pin": {text: string(c.Pin), typ: "string", choices: func() []string { return []string{"none", "same", "split"} }, set: func(s string) (err error) {
			c.Pin, err = pin.ParseMode(s)
			return err
		}},
		"timing-thread": {text: c.TimingThread, typ: "string", choices: func() []string { return []string{ThreadAuto, ThreadLocked, ThreadFree} }, set: func(s string) (err error) {
			c.TimingThread, err = ParseTimingThread(s)
			return err
		}},
		"idle-latency": {text: cmp.Or(c.IdleLatency, IdleDefault), typ: "string", choices: func() []string { return []string{IdleDefault, IdleLow} }, set: func(s string) (err error) {
			c.IdleLatency, err = ParseIdleLatency(s)
			return err
		}},
		"measure": {text: cmp.Or(c.Measure, MeasureTime), typ: "string", choices: func() []string { return []string{MeasureTime, MeasureInstructions} }, set: func(s string) error {
			if s != MeasureTime && s != MeasureInstructions {
				return fmt.Errorf("want %s or %s, got %q", MeasureTime, MeasureInstructions, s)
			}
			c.Measure = s
			return nil
		}},
		"baseline": {text: c.Baseline, typ: "string", choices: targets.Names, set: func(s string) error {
			t, ok := targets.Lookup(s)
			if s != "" && !ok {
				return fmt.Errorf("no target %q (sqlbench list names them)", s)
			}
			if ok {
				s = t.Name // an alias (xerial) names the target (jdbc-sqlite)
			}
			c.Baseline = s
			return nil
		}},
		"resolution": {text: strings.TrimPrefix(report.FormatResolution(report.ResolutionOr(c.Resolution, report.DefaultResolution)), "±"),
			typ: "string", set: func(s string) (err error) {
				c.Resolution, err = report.ParseResolution(s)
				return err
			}},
		"sqlite-journal": {text: strings.ToLower(c.SQLite.Journal), typ: "string", choices: func() []string { return []string{"delete", "truncate", "persist", "memory", "wal", "off"} }, set: func(s string) (err error) {
			c.SQLite.Journal, err = bench.ParseSQLiteJournal(s)
			return err
		}},
		"sqlite-sync": {text: strings.ToLower(c.SQLite.Sync), typ: "string", choices: func() []string { return []string{"off", "normal", "full", "extra", "driver"} }, set: func(s string) (err error) {
			c.SQLite.Sync, err = bench.ParseSQLiteSync(s)
			return err
		}},
	}
}

// CheckRanges refuses numbers outside what a session can do; the message
// names the flag.
func (c *Config) CheckRanges() error {
	switch {
	case c.Count < 1 || c.Count > 1000:
		return inputf("--count must be from 1 to 1000, got %d", c.Count)
	case c.Slices < 1 || c.Slices > 100:
		return inputf("--slices must be from 1 to 100, got %d", c.Slices)
	case !(c.Scale > 0 && c.Scale <= 1000):
		return inputf("--scale must be above 0 and at most 1000, got %g", c.Scale)
	case !(c.Warmup >= 0 && c.Warmup <= 10):
		return inputf("--warmup must be from 0 to 10, got %g", c.Warmup)
	case c.Timeout <= 0:
		return inputf("--timeout must be positive, got %s", c.Timeout)
	case c.Budget < 0:
		return inputf("--budget must be positive, got %s", c.Budget)
	case c.Looks != 0 && c.Budget == 0 && c.BudgetTimes == 0:
		return inputf("--looks needs a budget: --budget, or the default one (a session with --count looks once, at its runs)")
	case c.Looks < 0 || c.Looks > MaxLooks:
		return inputf("--looks must be from 1 to %d, got %d", MaxLooks, c.Looks)
	}
	return nil
}

// Quick makes c a smoke run: QuickScale (with each workload's own smoke
// scale), QuickCount and QuickSlices, except for those the command line
// gave (scaleSet, countSet, slicesSet).
func (c *Config) Quick(scaleSet, countSet, slicesSet bool) {
	if !scaleSet {
		c.Scale, c.Smoke = QuickScale, true
	}
	if !countSet {
		c.Count = QuickCount
	}
	if !slicesSet {
		c.Slices = QuickSlices
	}
}

// ParseIdleLatency reads an --idle-latency value into Config.IdleLatency:
// "" for default, IdleLow for low.
func ParseIdleLatency(v string) (string, error) {
	switch v {
	case IdleDefault:
		return "", nil
	case IdleLow:
		return IdleLow, nil
	}
	return "", fmt.Errorf("must be default or low, got %q", v)
}

// ParseCPUs reads a --cpu list ("2,4,8", as go test -cpu takes it); ""
// gives nil. Each value must be from 1 to 1024 and appear once.
func ParseCPUs(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 || n > 1024 {
			return nil, fmt.Errorf("want GOMAXPROCS values from 1 to 1024, comma-separated (e.g. 2,4,8), got %q", part)
		}
		if slices.Contains(out, n) {
			return nil, fmt.Errorf("%d is given twice", n)
		}
		out = append(out, n)
	}
	return out, nil
}

// ParseDSNFlag reads a --dsn value ("mariadb=DSN", "postgres=DSN"; mysql
// is taken for mariadb).
func ParseDSNFlag(v string) (bench.DB, string, error) {
	name, d, ok := strings.Cut(v, "=")
	if !ok || d == "" {
		return "", "", fmt.Errorf("want DATABASE=DSN, e.g. --dsn postgres=postgres://user:pw@127.0.0.1/db")
	}
	if name == "mysql" {
		name = string(bench.MariaDB)
	}
	db, err := bench.ParseDB(name)
	if err != nil || !db.Server() {
		return "", "", fmt.Errorf("%q is not a server database (valid: mariadb, postgres)", name)
	}
	return db, d, nil
}

// DefaultCache is where built runners are kept unless Config.Cache says
// otherwise.
func DefaultCache() string { return launcher.DefaultCache() }

// splitList splits a comma-separated flag value; empty gives nil.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// workloadChoices lists what --workloads takes by name: all, the families,
// then the workload names.
func workloadChoices() []string {
	out := []string{"all"}
	for _, w := range bench.Workloads() {
		if !slices.Contains(out, w.Family) {
			out = append(out, w.Family)
		}
	}
	for _, w := range bench.Workloads() {
		if !slices.Contains(out, w.Name) {
			out = append(out, w.Name)
		}
	}
	return out
}

// names converts named strings to strings.
func names[T ~string](vals []T) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}
