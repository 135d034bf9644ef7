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
	"slices"
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
	// Steps change the round trip during each run slice: the link starts
	// every slice at RTT and takes each step's round trip from its At on
	// (a server slowed on purpose mid-run, for open-loop runs). None: the
	// link stays as it is.
	Steps []Step `json:",omitempty"`
}

// Step is a change of a link's round trip during a run slice.
type Step struct {
	// At is when the change comes, from the moment the slice's request goes
	// to its runner (its warm-up, if any, included).
	At time.Duration
	// RTT is the round trip from At on.
	RTT time.Duration
}

// maxSteps bounds a schedule's steps.
const maxSteps = 32

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
// Either may be followed by a schedule of steps, ",DELAY@AT" each
// (0,2ms@5s: no delay, then a 2 ms round trip from 5 s into each run
// slice), AT increasing; DELAY may then be 0.
func Parse(s string) (Spec, error) {
	base, sched, scheduled := strings.Cut(s, ",")
	sp, err := parseBase(base, scheduled)
	if err != nil || !scheduled {
		return sp, err
	}
	for _, st := range strings.Split(sched, ",") {
		d, at, ok := strings.Cut(st, "@")
		if !ok {
			return Spec{}, fmt.Errorf("step %q: want DELAY@AT, like 2ms@5s (the round trip from 5s into each run)", st)
		}
		var step Step
		if step.RTT, err = parseDuration(d, "step delay"); err != nil {
			return Spec{}, err
		}
		if step.RTT < 0 || step.RTT > MaxRTT {
			return Spec{}, fmt.Errorf("step delay %q: want a round trip from 0 to %s", d, MaxRTT)
		}
		if step.At, err = time.ParseDuration(at); err != nil || step.At <= 0 {
			return Spec{}, fmt.Errorf("step %q: want a time after the slice's start with a unit, like 5s", st)
		}
		if n := len(sp.Steps); n > 0 && step.At <= sp.Steps[n-1].At {
			return Spec{}, fmt.Errorf("step %q: want each step after the one before it (%s)", st, sp.Steps[n-1].At)
		}
		if step.RTT < sp.Jitter {
			return Spec{}, fmt.Errorf("step %q: want a delay of at least the jitter, %s", st, sp.Jitter)
		}
		sp.Steps = append(sp.Steps, step)
	}
	if len(sp.Steps) > maxSteps {
		return Spec{}, fmt.Errorf("schedule %q: want at most %d steps", sched, maxSteps)
	}
	if sp.RTT == 0 && !slices.ContainsFunc(sp.Steps, func(st Step) bool { return st.RTT > 0 }) {
		return Spec{}, fmt.Errorf("%q: every delay of the schedule is 0: the link would add nothing", s)
	}
	return sp, nil
}

// parseBase reads a --link value without its schedule; a scheduled link
// may start with no delay.
func parseBase(s string, scheduled bool) (Spec, error) {
	if p, ok := presets[s]; ok {
		return p, nil
	}
	parts := strings.Split(s, "/")
	if s == "" || len(parts) > 3 {
		return Spec{}, fmt.Errorf("want lan, dc, wan or DELAY[/JITTER][/RATE][,DELAY@AT]... "+
			"(like 500us/50us/1gbit or 0,2ms@5s), got %q", s)
	}
	var sp Spec
	var err error
	if sp.RTT, err = parseDuration(parts[0], "delay"); err != nil {
		return Spec{}, err
	}
	if (sp.RTT <= 0 && !(scheduled && sp.RTT == 0)) || sp.RTT > MaxRTT {
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

// String is the spec as --link takes it: DELAY/JITTER/RATE, then its
// steps (,DELAY@AT).
func (s Spec) String() string {
	str := fmt.Sprintf("%s/%s/%s", fmtDur(s.RTT), fmtDur(s.Jitter), fmtRate(s.Rate))
	for _, st := range s.Steps {
		str += fmt.Sprintf(",%s@%s", fmtDur(st.RTT), st.At)
	}
	return str
}

// Describe is the spec in words, for the results file's link line.
func (s Spec) Describe() string {
	d := fmt.Sprintf("round trip +%s (each way %s), jitter ±%s, rate %s",
		fmtDur(s.RTT), fmtDur(s.OneWay()), fmtDur(s.Jitter/2), fmtRate(s.Rate))
	if s.Name != "" {
		d = s.Name + ": " + d
	}
	for _, st := range s.Steps {
		d += fmt.Sprintf(", then round trip +%s from %s into each run slice", fmtDur(st.RTT), st.At)
	}
	if len(s.Steps) > 0 {
		d += " (back to +" + fmtDur(s.RTT) + " when the slice ends)"
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
