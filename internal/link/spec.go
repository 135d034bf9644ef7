// Package link puts an emulated network link between sqlbench's runners
// and the servers they benchmark (sqlbench run --link): a round-trip delay,
// its jitter and a bandwidth limit, by a real link emulator — never a sleep
// in a driver or the harness.
//
// The link is Toxiproxy (github.com/Shopify/toxiproxy/v2 at the version
// go.mod pins): a proxy process of its own on loopback, started by Start,
// configured through its HTTP API with the delay and bandwidth toxics on
// both directions. It runs on any kernel; a network namespace reached over
// a veth pair with a netem qdisc would need one with netem
// (CONFIG_NET_SCH_NETEM), and is not built because it could not be tested
// without one (Netem says whether this kernel has it; the results record
// the answer). The delay toxic is sqlbench's own (package proxyd):
// Toxiproxy's latency toxic counts whole milliseconds, and a LAN's round
// trip is a tenth of one.
//
// Every proxy process is recorded in a directory of its own under
// os.TempDir() with the sqlbench process that started it; Sweep removes
// those whose owner is gone (a session killed with SIGKILL), as sqlbench
// clean and every session's start do.
package link

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Spec is one emulated link: what a ping across it would show, and its
// rate.
type Spec struct {
	// Name is the preset the spec came from ("lan", "dc", "wan"), or "".
	Name string
	// RTT is the round-trip time the link adds: each direction delays by
	// half of it.
	RTT time.Duration
	// Jitter is the spread of the round trip: each direction's delay
	// varies uniformly by ±Jitter/2.
	Jitter time.Duration
	// Rate is the link's bandwidth in bits per second, each direction;
	// 0 is unlimited.
	Rate int64
}

// Presets are the named links of --link.
var presets = map[string]Spec{
	// One switch between two hosts of a rack.
	"lan": {Name: "lan", RTT: 100 * time.Microsecond, Jitter: 10 * time.Microsecond, Rate: 10_000_000_000},
	// An application and its database in one data centre.
	"dc": {Name: "dc", RTT: time.Millisecond, Jitter: 100 * time.Microsecond, Rate: 1_000_000_000},
	// Two regions.
	"wan": {Name: "wan", RTT: 30 * time.Millisecond, Jitter: 3 * time.Millisecond, Rate: 100_000_000},
}

// MaxRTT bounds a link's round trip: a longer one would make every run of
// every cell a test of patience, not of a driver.
const MaxRTT = 10 * time.Second

// Parse reads a --link value: a preset (lan, dc, wan) or
// DELAY[/JITTER][/RATE], DELAY and JITTER durations with a unit (500us,
// 0.1ms, 1ms), RATE bits per second with a unit (100mbit, 1gbit, 10gbit,
// kbit; "0" or omitted: unlimited). DELAY is the round trip the link adds.
func Parse(s string) (Spec, error) {
	if p, ok := presets[s]; ok {
		return p, nil
	}
	parts := strings.Split(s, "/")
	if s == "" || len(parts) > 3 {
		return Spec{}, fmt.Errorf("want lan, dc, wan or DELAY[/JITTER][/RATE] (like 500us/50us/1gbit), got %q", s)
	}
	var sp Spec
	var err error
	if sp.RTT, err = parseDuration(parts[0], "delay"); err != nil {
		return Spec{}, err
	}
	if sp.RTT <= 0 || sp.RTT > MaxRTT {
		return Spec{}, fmt.Errorf("delay %q: want a round trip above 0 and at most %s", parts[0], MaxRTT)
	}
	if len(parts) > 1 && parts[1] != "" {
		if sp.Jitter, err = parseDuration(parts[1], "jitter"); err != nil {
			return Spec{}, err
		}
		if sp.Jitter < 0 || sp.Jitter > sp.RTT {
			return Spec{}, fmt.Errorf("jitter %q: want from 0 to the delay, %s", parts[1], sp.RTT)
		}
	}
	if len(parts) > 2 {
		if sp.Rate, err = parseRate(parts[2]); err != nil {
			return Spec{}, err
		}
	}
	return sp, nil
}

func parseDuration(s, what string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s %q: want a duration with a unit, like 500us or 1ms", what, s)
	}
	if d%time.Microsecond != 0 {
		return 0, fmt.Errorf("%s %q: the emulator's resolution is 1µs", what, s)
	}
	return d, nil
}

// rateUnits are the units of a rate, as tc writes them (bits per second).
var rateUnits = []struct {
	suffix string
	mult   float64
}{{"gbit", 1e9}, {"mbit", 1e6}, {"kbit", 1e3}, {"bit", 1}}

// minRate is the slowest link: Toxiproxy's bandwidth toxic counts whole
// kilobytes per second.
const minRate = 8_000

func parseRate(s string) (int64, error) {
	if s == "0" {
		return 0, nil
	}
	for _, u := range rateUnits {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			break
		}
		r := v * u.mult
		if r < minRate || r > 1e12 {
			return 0, fmt.Errorf("rate %q: want from 8kbit to 1000gbit, or 0 for unlimited", s)
		}
		return int64(r), nil
	}
	return 0, fmt.Errorf("rate %q: want bits per second with a unit, like 100mbit or 1gbit", s)
}

// OneWay is the delay each direction adds: half the round trip.
func (s Spec) OneWay() time.Duration { return s.RTT / 2 }

// String is the spec as --link takes it: DELAY/JITTER/RATE.
func (s Spec) String() string {
	return fmt.Sprintf("%s/%s/%s", fmtDur(s.RTT), fmtDur(s.Jitter), fmtRate(s.Rate))
}

// Describe is the spec in words, for the results file's link line.
func (s Spec) Describe() string {
	d := fmt.Sprintf("round trip +%s (each way %s), jitter ±%s, rate %s",
		fmtDur(s.RTT), fmtDur(s.OneWay()), fmtDur(s.Jitter/2), fmtRate(s.Rate))
	if s.Name != "" {
		d = s.Name + ": " + d
	}
	return d
}

func fmtDur(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%time.Millisecond == 0:
		return fmt.Sprintf("%dms", d/time.Millisecond)
	default:
		return fmt.Sprintf("%dus", d/time.Microsecond)
	}
}

func fmtRate(r int64) string {
	switch {
	case r == 0:
		return "unlimited"
	case r%1e9 == 0:
		return fmt.Sprintf("%dgbit", r/1e9)
	case r%1e6 == 0:
		return fmt.Sprintf("%dmbit", r/1e6)
	case r%1e3 == 0:
		return fmt.Sprintf("%dkbit", r/1e3)
	}
	return fmt.Sprintf("%dbit", r)
}
