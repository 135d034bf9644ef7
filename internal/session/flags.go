// The values of a front end's flags: the defaults, their parsers and the
// checks of a whole Config that name the flag at fault.

package session

import (
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// Defaults returns the Config of a session with every default set: what
// sqlbench run does without flags (runners kept in DefaultCache).
func Defaults() *Config {
	return &Config{
		DBs: []bench.DB{bench.SQLite}, Count: DefaultCount, Slices: DefaultSlices, Scale: DefaultScale,
		Warmup: DefaultWarmup, Timeout: DefaultTimeout, Cache: DefaultCache(), Nets: []string{"tcp", "unix"},
		Profile: servers.ProfileDurable, Pin: DefaultPin, TimingThread: ThreadAuto,
		SQLite: bench.DefaultSQLiteSettings(),
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
		return inputf(
			"--looks needs a budget: --budget, or the default one (a session with --count looks once, at its runs)")
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
// "" for default, IdleLow for low, IdleAuto for auto.
func ParseIdleLatency(v string) (string, error) {
	switch v {
	case IdleDefault:
		return "", nil
	case IdleLow, IdleAuto:
		return v, nil
	}
	return "", fmt.Errorf("must be default, low or auto, got %q", v)
}

// ParsePin reads a --pin value into Config.Pin (pin.ParseMode), so that
// a front end need not reach the placement machinery itself.
func ParsePin(s string) (pin.Mode, error) { return pin.ParseMode(s) }

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
