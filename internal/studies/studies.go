// Package studies holds the published Go SQL-driver benchmark studies that
// sqlbench reproduces, as data (studies.json, embedded): where each was
// published (document, table, date, machine), the figures it published for
// each of its tests, the comparisons it drew (pairs of sides, a side being a
// target running a workload), and what a reproduction here runs: the
// sqlbench targets and workload IDs standing for the study's drivers and
// tests, its conditions (server profile, transports, GOMAXPROCS values,
// warm-up) and what cannot be reproduced and why.
//
// The figures are cited from the documents; the package computes the
// published ratios from them, so that a ratio is never typed in by hand.
package studies

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

//go:embed studies.json
var data []byte

// Study is one published benchmark study.
type Study struct {
	// ID names the study on the command line (sqlbench reproduce ID).
	ID string `json:"id"`
	// Title is a short description.
	Title string `json:"title"`
	// Source says where the figures were published.
	Source Source `json:"source"`
	// Unit is the unit of the published figures: a time ("ms", "s",
	// "ns/op": lower is better) or a rate ("queries/s", "rows/s": higher
	// is better).
	Unit string `json:"unit"`
	// Sides are the columns of the study's tables: a driver (a target),
	// or a target running a workload of its own.
	Sides []Side `json:"sides"`
	// Pairs are the comparisons the study drew, each as [numerator,
	// denominator] side names: the ratio is the numerator's speed over the
	// denominator's (above 1: the numerator is faster).
	Pairs [][2]string `json:"pairs"`
	// Tests are the study's rows, with their published figures.
	Tests []Test `json:"tests"`
	// Plan is how sqlbench reproduces the study here.
	Plan Setup `json:"plan"`
	// Unavailable names what of the study cannot be reproduced, and why.
	Unavailable []Gap `json:"unavailable"`
	// Causes are the known or likely causes of comparisons that differ
	// from the published ones here (see CauseOf).
	Causes []Cause `json:"causes,omitempty"`
}

// Source cites the document that published a study's figures.
type Source struct {
	// Document names the document (a file of the published repository,
	// a blog post).
	Document string `json:"document"`
	// URL is the document's public address: the file at the commit that
	// published it, or the article's address.
	URL string `json:"url"`
	// Program is the public address of the published program that made
	// the figures, at that commit where it is known.
	Program string `json:"program,omitempty"`
	// Table names the table or section the figures come from.
	Table string `json:"table"`
	// Date is the date of the results.
	Date string `json:"date"`
	// Machine is the machine, operating system and server they ran on.
	Machine string `json:"machine"`
	// Go is the Go toolchain the study's Go programs were built with, as
	// the study states it, or "not stated".
	Go string `json:"go"`
}

// Side is one column of a study: a target, running the test's workload or
// a workload of its own.
type Side struct {
	// Name is the column's name in the study's tables.
	Name string `json:"name"`
	// Target is the sqlbench target standing for it.
	Target string `json:"target"`
	// Workload, when set, is the workload this side runs in every test,
	// instead of the test's (a transport floor beside a database insert).
	Workload string `json:"workload,omitempty"`
}

// Test is one row of a study's tables.
type Test struct {
	// Name is the row's name in the study.
	Name string `json:"name"`
	// Workload is the sqlbench workload ID standing for it.
	Workload string `json:"workload,omitempty"`
	// CPU is the GOMAXPROCS the row ran with (go test -cpu), 0 if none.
	CPU int `json:"cpu,omitempty"`
	// Values are the published figures by side name, in the study's unit.
	Values map[string]float64 `json:"values"`
	// Memory, when the study published them, are the memory figures by
	// side name (go test -benchmem's B/op and allocs/op).
	Memory map[string]Memory `json:"memory,omitempty"`
}

// Memory is a published memory figure of one side on one test.
type Memory struct {
	// BytesPerOp and AllocsPerOp are go test's B/op and allocs/op.
	BytesPerOp  float64 `json:"B/op"`
	AllocsPerOp float64 `json:"allocs/op"`
}

// Setup is how a study is reproduced here: its plan.
type Setup struct {
	// Nets are the transports to the servers (empty: sqlbench's default).
	Nets []string `json:"nets,omitempty"`
	// Profile is the server configuration (servers.Profile; empty: the
	// default).
	Profile string `json:"profile,omitempty"`
	// Warmup is the untimed fraction of each run: 0 where the study had
	// no warm-up.
	Warmup float64 `json:"warmup"`
	// Scale is the default scale of a reproduction: one that finishes in
	// minutes here (--scale 1 is the published size).
	Scale float64 `json:"scale"`
	// Count is the number of runs per cell; Slices the parts each run is
	// made of, spread over the session (session.Config.Slices).
	Count  int `json:"count"`
	Slices int `json:"slices"`
	// SQLiteSync is the SQLite synchronous level the study's programs ran
	// at (bench.ParseSQLiteSync; "driver" where they set none and each
	// driver kept its own); empty: sqlbench's default, FULL.
	SQLiteSync string `json:"sqlite_sync,omitempty"`
	// Note says how the study's method maps onto sqlbench's.
	Note string `json:"note,omitempty"`
}

// Gap is something of a study that cannot be reproduced here.
type Gap struct {
	What string `json:"what"`
	Why  string `json:"why"`
}

// Comparison is one headline comparison of a study: side Num over side
// Den on one test.
type Comparison struct {
	Test     Test
	Num, Den Side
	// Published is the ratio of the published figures as speeds: Num's
	// speed over Den's.
	Published float64
}

// Label names the comparison: "SimpleQuery: Go-MySQL-Driver / mymysql".
func (c Comparison) Label() string {
	return c.Test.Name + ": " + c.Num.Name + " / " + c.Den.Name
}

// WorkloadOf returns the workload side s runs in test t.
func WorkloadOf(s Side, t Test) string {
	if s.Workload != "" {
		return s.Workload
	}
	return t.Workload
}

// LowerIsBetter reports whether the study's figures are times (ms, ns/op)
// rather than rates (queries/s): benchfile.HigherIsBetter.
func (s *Study) LowerIsBetter() bool { return !benchfile.HigherIsBetter(s.Unit) }

// Side returns the side called name.
func (s *Study) Side(name string) (Side, bool) {
	i := slices.IndexFunc(s.Sides, func(x Side) bool { return x.Name == name })
	if i < 0 {
		return Side{}, false
	}
	return s.Sides[i], true
}

// Comparisons returns every pair on every test that has both figures, in
// test order, then pair order.
func (s *Study) Comparisons() []Comparison {
	var out []Comparison
	for _, t := range s.Tests {
		for _, p := range s.Pairs {
			a, okA := t.Values[p[0]]
			b, okB := t.Values[p[1]]
			if !okA || !okB || a <= 0 || b <= 0 {
				continue
			}
			num, _ := s.Side(p[0])
			den, _ := s.Side(p[1])
			r := a / b
			if s.LowerIsBetter() {
				r = b / a
			}
			out = append(out, Comparison{Test: t, Num: num, Den: den, Published: r})
		}
	}
	return out
}

// Targets returns the targets of the sides that take part in a
// comparison, in side order.
func (s *Study) Targets() []string {
	var out []string
	for _, side := range s.Sides {
		if s.inPair(side.Name) && !slices.Contains(out, side.Target) {
			out = append(out, side.Target)
		}
	}
	return out
}

// Workloads returns the workload IDs of the comparisons, in test order.
func (s *Study) Workloads() []string {
	var out []string
	for _, c := range s.Comparisons() {
		for _, side := range []Side{c.Num, c.Den} {
			if w := WorkloadOf(side, c.Test); !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// CPUs returns the GOMAXPROCS values of the study's tests, in order; nil
// when it set none.
func (s *Study) CPUs() []int {
	var out []int
	for _, t := range s.Tests {
		if t.CPU > 0 && !slices.Contains(out, t.CPU) {
			out = append(out, t.CPU)
		}
	}
	return out
}

func (s *Study) inPair(name string) bool {
	return slices.ContainsFunc(s.Pairs, func(p [2]string) bool { return p[0] == name || p[1] == name })
}

// All returns every study, in publication order.
func All() []*Study {
	var out []*Study
	if err := json.Unmarshal(data, &out); err != nil {
		panic(fmt.Sprintf("studies.json: %v", err)) // embedded: a test catches it
	}
	return out
}

// Lookup returns the study called id.
func Lookup(id string) (*Study, bool) {
	for _, s := range All() {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// IDs returns every study's ID, in order.
func IDs() []string {
	var ids []string
	for _, s := range All() {
		ids = append(ids, s.ID)
	}
	return ids
}

// UnknownError is the error for a study ID that does not exist.
func UnknownError(id string) error {
	return fmt.Errorf("unknown study %q (valid: %s)", id, strings.Join(IDs(), ", "))
}
