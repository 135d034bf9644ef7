package benchfile

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
)

// Header is a session's own settings as its results file records them in
// configuration lines: the one writer of those lines (Lines, Write) and the
// one reader (ParseHeader), which the session, sqlbench report, compare,
// the dry run's estimate and --resume share. The lines of the machine, the
// drivers and the servers are not the session's settings and are not here.
type Header struct {
	// Pin is the CPU placement ("none", "split 0 | 1").
	Pin string
	// TimingThread says whether Go timing goroutines kept a thread.
	TimingThread string
	// IdleLatency is the CPUs' idle regime, when held low.
	IdleLatency string
	// CPUProfile is the directory of the cells' CPU profiles, if any.
	CPUProfile string
	// Version is sqlbench's own; Command the command line, passwords
	// masked.
	Version, Command string
	// Count runs per cell, each in up to Slices slices.
	Count, Slices int
	// Scale multiplies every workload's operations; SmokeScales are the
	// workloads (by name, in catalogue order) a smoke run ran smaller.
	Scale       float64
	SmokeScales []NamedScale
	// Warmup is the untimed fraction before each run; WarmupAll says it
	// was given to workloads whose published program had none.
	Warmup    float64
	WarmupAll bool
	// JITWarmup, when set, says how the JDBC runners' JIT was warmed.
	JITWarmup string
	// CPUs are the GOMAXPROCS values of the Go cells (--cpu).
	CPUs []int
	// Study is the published study the session reproduced.
	Study string
	// Began is when the session began (before its servers started and its
	// runners were built), Started when its first run did (the header was
	// written), Finished when its last ended: UTC, to the millisecond.
	// Finished is set on the results file's close (a session fact written
	// last); a dry run's estimate reads the three.
	Began, Started, Finished time.Time
	// SessionID begins the name of every table the session created.
	SessionID string
}

// NamedScale is a workload's own scale in a smoke run.
type NamedScale struct {
	Name  string
	Scale float64
}

// The keys of a header's lines.
const (
	KeyPin          = "pin"
	KeyTimingThread = "timing-thread"
	KeyIdleLatency  = "idle-latency"
	// KeyIdleLatencyAuto is the session fact of a session asked for the
	// auto idle regime that kept the kernel's default one, and why.
	KeyIdleLatencyAuto = "idle-latency-auto"
	KeyCPUProfile      = "cpuprofile"
	KeyVersion         = "sqlbench"
	KeyCommand         = "sqlbench-command"
	KeyCount           = "count"
	KeySlices          = "slices"
	KeyScale           = "scale"
	KeySmokeScales     = "smoke-scales"
	KeyWarmup          = "warmup"
	KeyWarmupAll       = "warmup-all"
	KeyJITWarmup       = "jit-warmup"
	KeyCPU             = "gomaxprocs" // not "cpu": the machine's processor model (envinfo)
	KeyStudy           = "reproduce-study"
	KeyBegan           = "began"
	KeyStarted         = "started"
	KeyFinished        = "finished"
	KeySessionID       = "session-id"
)

// MeasuredHeaderKey reports whether key is a header line whose value
// changes what the cells measure: the run's shape (count, slices, scale,
// smoke scales, warm-up), the timing thread, the JIT warm-up, CPU placement,
// GOMAXPROCS and the idle regime.
func MeasuredHeaderKey(key string) bool {
	return slices.Contains([]string{KeyCount, KeySlices, KeyScale, KeySmokeScales, KeyWarmup, KeyWarmupAll, KeyPin,
		KeyCPU, KeyTimingThread, KeyJITWarmup, KeyIdleLatency}, key)
}

// Lines returns the header's configuration lines, key and value, in a
// fixed order; the optional ones (idle latency, CPU profile, smoke scales,
// JIT warm-up, CPUs, study, start, session id) only when set.
func (h Header) Lines() [][2]string {
	var out [][2]string
	add := func(k, v string) { out = append(out, [2]string{k, v}) }
	opt := func(k, v string) {
		if v != "" {
			add(k, v)
		}
	}
	add(KeyPin, h.Pin)
	add(KeyTimingThread, h.TimingThread)
	opt(KeyIdleLatency, h.IdleLatency)
	opt(KeyCPUProfile, h.CPUProfile)
	add(KeyVersion, h.Version)
	add(KeyCommand, h.Command)
	add(KeyCount, strconv.Itoa(h.Count))
	add(KeySlices, strconv.Itoa(h.Slices))
	add(KeyScale, formatFloat(h.Scale))
	smoke := make([]string, len(h.SmokeScales))
	for i, s := range h.SmokeScales {
		smoke[i] = s.Name + "=" + formatFloat(s.Scale)
	}
	opt(KeySmokeScales, strings.Join(smoke, " "))
	add(KeyWarmup, formatFloat(h.Warmup))
	add(KeyWarmupAll, strconv.FormatBool(h.WarmupAll))
	opt(KeyJITWarmup, h.JITWarmup)
	cpus := make([]string, len(h.CPUs))
	for i, n := range h.CPUs {
		cpus[i] = strconv.Itoa(n)
	}
	opt(KeyCPU, strings.Join(cpus, ","))
	opt(KeyStudy, h.Study)
	for _, t := range []struct {
		key string
		at  time.Time
	}{{KeyBegan, h.Began}, {KeyStarted, h.Started}, {KeyFinished, h.Finished}} {
		if !t.at.IsZero() {
			add(t.key, t.at.UTC().Format(timeFormat))
		}
	}
	opt(KeySessionID, h.SessionID)
	return out
}

// Write sets the header's lines on w (SetConfig).
func (h Header) Write(w *Writer) {
	for _, kv := range h.Lines() {
		w.SetConfig(kv[0], kv[1])
	}
}

// WriteFinished sets the line of h.Finished on w: the header's last line,
// written when the session's runs have ended.
func (h Header) WriteFinished(w *Writer) {
	w.SetConfig(KeyFinished, h.Finished.UTC().Format(timeFormat))
}

// ParseHeader reads a header from configuration lines (a result's Config,
// as Read gives it); lines of other keys are ignored, and a header line
// that is absent leaves its field zero. A value that does not parse is an
// error naming the key.
func ParseHeader(cfg []benchfmt.Config) (Header, error) {
	var h Header
	for _, c := range cfg {
		v := string(c.Value)
		var err error
		switch c.Key {
		case KeyPin:
			h.Pin = v
		case KeyTimingThread:
			h.TimingThread = v
		case KeyIdleLatency:
			h.IdleLatency = v
		case KeyCPUProfile:
			h.CPUProfile = v
		case KeyVersion:
			h.Version = v
		case KeyCommand:
			h.Command = v
		case KeyCount:
			h.Count, err = parseCount(v)
		case KeySlices:
			h.Slices, err = parseCount(v)
		case KeyScale:
			h.Scale, err = parseScale(v)
		case KeySmokeScales:
			h.SmokeScales, err = parseSmokeScales(v)
		case KeyWarmup:
			h.Warmup, err = parseFraction(v)
		case KeyWarmupAll:
			h.WarmupAll, err = strconv.ParseBool(v)
		case KeyJITWarmup:
			h.JITWarmup = v
		case KeyCPU:
			h.CPUs, err = ParseCPUs(v)
		case KeyStudy:
			h.Study = v
		case KeyBegan:
			h.Began, err = parseTime(v)
		case KeyStarted:
			h.Started, err = parseTime(v)
		case KeyFinished:
			h.Finished, err = parseTime(v)
		case KeySessionID:
			h.SessionID = v
		default:
			continue
		}
		if err != nil {
			return Header{}, fmt.Errorf("results header: %s %q: %w", c.Key, v, err)
		}
	}
	return h, nil
}

// ScaleOf returns the scale workload name ran at: its smoke scale, else
// Scale; 1 when the header has no scale (a go test -bench file).
func (h Header) ScaleOf(name string) float64 {
	for _, s := range h.SmokeScales {
		if s.Name == name {
			return s.Scale
		}
	}
	if h.Scale == 0 {
		return 1
	}
	return h.Scale
}

// KeyRunnerBuild is the session fact of the time the session spent
// building runners before its first run ("0s" when the cache had them
// all): part of the time from Began to Started that a later session of
// the same runners does not spend.
const KeyRunnerBuild = "runner-build"

// RunnerBuild returns the time a session spent building runners, from its
// configuration lines (KeyRunnerBuild); false when they have none (files
// of earlier versions) or it does not parse.
func RunnerBuild(cfg []benchfmt.Config) (time.Duration, bool) {
	for _, c := range cfg {
		if c.Key == KeyRunnerBuild {
			d, err := time.ParseDuration(string(c.Value))
			return d, err == nil && d >= 0
		}
	}
	return 0, false
}

// timeFormat is how a header writes a time: RFC 3339 in UTC, to the
// millisecond (files of earlier versions have seconds, which parse too).
const timeFormat = "2006-01-02T15:04:05.000Z07:00"

func parseTime(v string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, v)
	return t.UTC().Truncate(time.Millisecond), err
}

// Elapsed returns the time from Began to Started (building runners,
// starting servers, asking the runners what they run) and from Started to
// Finished (the runs); false when the header lacks one of the three.
func (h Header) Elapsed() (setUp, runs time.Duration, ok bool) {
	if h.Began.IsZero() || h.Started.IsZero() || h.Finished.IsZero() {
		return 0, 0, false
	}
	return h.Started.Sub(h.Began), h.Finished.Sub(h.Started), true
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func parseCount(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a count")
	}
	return n, nil
}

func parseScale(v string) (float64, error) {
	f, err := parseFraction(v)
	if err == nil && f == 0 {
		err = fmt.Errorf("not a positive number")
	}
	return f, err
}

func parseFraction(v string) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("not a number of at least 0")
	}
	return f, nil
}

func parseSmokeScales(v string) ([]NamedScale, error) {
	var out []NamedScale
	for _, kv := range strings.Split(v, " ") {
		name, s, ok := strings.Cut(kv, "=")
		if !ok || name == "" || strings.ContainsAny(name, "= \t") {
			return nil, fmt.Errorf("want NAME=SCALE, space-separated")
		}
		f, err := parseScale(s)
		if err != nil {
			return nil, err
		}
		out = append(out, NamedScale{name, f})
	}
	return out, nil
}

// MaxCPUs is the largest GOMAXPROCS value a CPU list may hold.
const MaxCPUs = 1024

// ParseCPUs reads a list of GOMAXPROCS values as go test -cpu takes it and
// a results file's cpu line records it: "2,4,8". "" gives nil. Each value
// must be from 1 to MaxCPUs and appear once.
func ParseCPUs(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 || n > MaxCPUs {
			return nil, fmt.Errorf("want GOMAXPROCS values from 1 to %d, comma-separated (e.g. 2,4,8), got %q",
				MaxCPUs, part)
		}
		if slices.Contains(out, n) {
			return nil, fmt.Errorf("%d is given twice", n)
		}
		out = append(out, n)
	}
	return out, nil
}
