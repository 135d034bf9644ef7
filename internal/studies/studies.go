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
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

//go:embed studies.json
var data []byte

//go:embed shims/*.txt
var shims embed.FS

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
	// Period are the study's drivers at the versions current when it was
	// published, one per target (reproduce runs them by default).
	Period []Period `json:"period,omitempty"`
}

// Period is one of a study's drivers at the version current when the
// study was published: a version target (driver@version) of its catalogue
// target, built from the module proxy's release or pseudo-version (a
// Maven version for a JDBC target), with the source edits it needs to build
// with today's Go or to talk to today's server, or the reason it cannot run
// here (then the catalogue's pinned version runs instead).
type Period struct {
	// Target is the catalogue target the version is of.
	Target string `json:"target"`
	// Version is the module version (a release, or a pseudo-version
	// naming a commit), or the Maven version of a JDBC driver; empty: the
	// version go.mod pins.
	Version string `json:"version,omitempty"`
	// Source, when set, is the module the version is downloaded from
	// instead of the target's own (a fork that keeps its module path).
	Source string `json:"source,omitempty"`
	// Amalgamation, when set, is a module whose SQLite amalgamation
	// (sqlite3.c and sqlite3.h, at the version go.mod pins) replaces the
	// one the target's module bundles.
	Amalgamation string `json:"amalgamation,omitempty"`
	// Released is the date of that version (its commit's), Commit the
	// commit where the release has no tag.
	Released string `json:"released"`
	Commit   string `json:"commit,omitempty"`
	// Edits are the source edits the version needs here, applied to a
	// copy of the module before it is built.
	Edits []Edit `json:"edits,omitempty"`
	// With are modules the study's program built the driver with at
	// other versions than go.mod's, as module@version (the program's
	// go.mod's): the build requires them too, so that a driver on another
	// module's engine (zombiezen on modernc's SQLite) links the engine the
	// program linked. A period version with With is built even where its
	// own version is the one go.mod pins.
	With []string `json:"with,omitempty"`
	// Fallback, when set, says why the version does not run here: the
	// catalogue target runs instead.
	Fallback string `json:"fallback,omitempty"`
	// Note says how the version was chosen.
	Note string `json:"note,omitempty"`
}

// Edit is one source edit of a period version: on line Line of File, the
// text Old becomes New (Old must be on that line); or, with Shim, the file
// is added with the text of shims/SHIM.txt (code of sqlbench's own).
type Edit struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
	Shim string `json:"shim,omitempty"`
	// Why says what fails without it.
	Why string `json:"why"`
}

// NeedsCopy reports whether the version is built from an edited copy of
// its module rather than from the module proxy's release as it is.
func (p Period) NeedsCopy() bool {
	return p.Source != "" || p.Amalgamation != "" || len(p.Edits) > 0
}

// ShimText returns the text of the shim e adds.
func ShimText(e Edit) ([]byte, error) {
	b, err := shims.ReadFile("shims/" + e.Shim + ".txt")
	if err != nil {
		return nil, fmt.Errorf("shim %q: %w", e.Shim, err)
	}
	return b, nil
}

// PeriodOf returns the period version of the study's target name.
func (s *Study) PeriodOf(target string) (Period, bool) {
	i := slices.IndexFunc(s.Period, func(p Period) bool { return p.Target == target })
	if i < 0 {
		return Period{}, false
	}
	return s.Period[i], true
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
	// JDBCPreparedExec is how the study's Java program ran PreparedExec:
	// "with-sql" for ps.execute(sql), the SQL passed again (the JDBC
	// runner's default is ps.execute()); empty: the runner's.
	JDBCPreparedExec string `json:"jdbc_prepared_exec,omitempty"`
	// Builds are targets a reproduction runs by default as other builds
	// than the catalogue's, to meet a condition of the study (Period
	// entries; their Version empty: the version go.mod pins).
	Builds []Period `json:"builds,omitempty"`
}

// Gap is something of a study that cannot be reproduced here.
type Gap struct {
	What string `json:"what"`
	Why  string `json:"why"`
	// Versions marks the gap of the drivers' versions, which
	// reproduce's period versions replace with its own lines.
	Versions bool `json:"versions,omitempty"`
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
