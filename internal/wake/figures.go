package wake

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Figures are the median and 90th percentile of a set of round trips.
type Figures struct {
	Median, P90 time.Duration
	// N is the number of round trips.
	N int
}

// Summarize returns the figures of round trips d (nearest rank).
func Summarize(d []time.Duration) Figures {
	if len(d) == 0 {
		return Figures{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	rank := func(q float64) time.Duration {
		i := int(q*float64(len(s))+0.999999) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return Figures{Median: rank(0.5), P90: rank(0.9), N: len(s)}
}

// Reading is what the probes of a stretch of time (a session, a run) say:
// the figures by kind of round trip, and why a kind has none.
type Reading struct {
	Figures map[Kind]Figures
	Failed  map[Kind]string
}

// micros writes d in µs with three significant digits or more.
func micros(d time.Duration) string {
	us := float64(d) / 1e3
	switch {
	case us < 10:
		return strconv.FormatFloat(us, 'f', 2, 64)
	case us < 100:
		return strconv.FormatFloat(us, 'f', 1, 64)
	}
	return strconv.FormatFloat(us, 'f', 0, 64)
}

// String writes the reading on one line, the form results files keep:
// "thread 41.2/63.0 µs, process 58.1/90.3 µs, tcp 77.0/120 µs" (median/p90
// of a round trip), a kind that could not be timed as "process unavailable".
func (r Reading) String() string {
	var parts []string
	for _, k := range Kinds() {
		if f, ok := r.Figures[k]; ok && f.N > 0 {
			parts = append(parts, fmt.Sprintf("%s %s/%s µs", k, micros(f.Median), micros(f.P90)))
		} else if _, ok := r.Failed[k]; ok {
			parts = append(parts, string(k)+" unavailable")
		}
	}
	return strings.Join(parts, ", ")
}

// figureText matches one kind's figures in Reading.String's form.
var figureText = regexp.MustCompile(`\b(thread|process|tcp) ([0-9.]+)/([0-9.]+) µs`)

// Parse reads the figures of a Reading back from its String form (the
// counts are not kept: N is 0). Kinds it does not find are missing.
func Parse(s string) Reading {
	r := Reading{Figures: map[Kind]Figures{}}
	for _, m := range figureText.FindAllStringSubmatch(s, -1) {
		med, err1 := strconv.ParseFloat(m[2], 64)
		p90, err2 := strconv.ParseFloat(m[3], 64)
		if err1 == nil && err2 == nil {
			r.Figures[Kind(m[1])] = Figures{Median: time.Duration(med * 1e3), P90: time.Duration(p90 * 1e3)}
		}
	}
	return r
}

// Difference is a kind of round trip whose median differs between two
// readings by more than a factor.
type Difference struct {
	Kind     Kind
	Old, New time.Duration
	// Factor is the larger median over the smaller (at least 1).
	Factor float64
}

// String says it: "tcp 2.9× slower (41.0 → 120 µs)".
func (d Difference) String() string {
	way := "slower"
	if d.New < d.Old {
		way = "faster"
	}
	return fmt.Sprintf("%s %.1f× %s (%s → %s µs median)", d.Kind, d.Factor, way, micros(d.Old), micros(d.New))
}

// Differences returns the kinds both readings timed whose medians differ
// by more than factor, in Kinds order.
func Differences(old, new Reading, factor float64) []Difference {
	var out []Difference
	for _, k := range Kinds() {
		a, okA := old.Figures[k]
		b, okB := new.Figures[k]
		if !okA || !okB || a.Median <= 0 || b.Median <= 0 {
			continue
		}
		f := float64(max(a.Median, b.Median)) / float64(min(a.Median, b.Median))
		if f > factor {
			out = append(out, Difference{Kind: k, Old: a.Median, New: b.Median, Factor: f})
		}
	}
	return out
}
