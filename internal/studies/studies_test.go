package studies_test

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/targets"
	_ "github.com/sqlbench/sqlbench/workloads" // registers the workload catalogue
)

// TestEveryStudyPlanRunsOnTheCatalogue checks each study's plan against the
// target catalogue and the workload registry: every side compared is a
// target that runs the side's workload on its database, every workload
// exists, and what is not compared is named as unavailable
// with a reason.
func TestEveryStudyPlanRunsOnTheCatalogue(t *testing.T) {
	all := studies.All()
	if len(all) != 8 {
		t.Errorf("%d studies, want the 8 published result sets", len(all))
	}
	seen := map[string]bool{}
	for _, s := range all {
		if seen[s.ID] || s.ID == "" || strings.ContainsAny(s.ID, " /") {
			t.Errorf("bad or repeated study ID %q", s.ID)
		}
		seen[s.ID] = true
		if s.Source.Document == "" || s.Source.Date == "" || s.Source.Machine == "" || s.Source.Table == "" {
			t.Errorf("%s: source incomplete: %+v", s.ID, s.Source)
		}
		checkSource(t, s)
		if !(s.Plan.Scale > 0 && s.Plan.Scale <= 1) || s.Plan.Count < 1 || s.Plan.Slices < 1 {
			t.Errorf("%s: scale %g, count %d", s.ID, s.Plan.Scale, s.Plan.Count)
		}
		checkCauses(t, s)
		if _, err := servers.ParseProfile(s.Plan.Profile); err != nil {
			t.Errorf("%s: %v", s.ID, err)
		}
		if len(s.Comparisons()) == 0 {
			t.Errorf("%s: no comparison has both figures", s.ID)
		}
		for _, p := range s.Pairs {
			for _, name := range p {
				if _, ok := s.Side(name); !ok {
					t.Errorf("%s: pair side %q is no side", s.ID, name)
				}
			}
		}
		for _, side := range s.Sides {
			if !slices.Contains(s.Targets(), side.Target) && !named(s, side) {
				t.Errorf("%s: side %q is compared nowhere and not named as unavailable", s.ID, side.Name)
			}
		}
		for _, c := range s.Comparisons() {
			checkComparison(t, s, c)
		}
		for _, test := range s.Tests {
			for name, m := range test.Memory {
				if _, ok := s.Side(name); !ok || m.BytesPerOp < 0 || m.AllocsPerOp < 0 {
					t.Errorf("%s %s: memory figures of %q (%+v): no such side, or negative", s.ID, test.Name, name, m)
				}
			}
		}
	}
}

func checkComparison(t *testing.T, s *studies.Study, c studies.Comparison) {
	t.Helper()
	for _, side := range []studies.Side{c.Num, c.Den} {
		spec, ok := targets.Lookup(side.Target)
		if !ok {
			t.Errorf("%s %s: target %q is not in the catalogue", s.ID, c.Label(), side.Target)
			continue
		}
		id := studies.WorkloadOf(side, c.Test)
		w, ok := bench.LookupWorkload(id)
		switch {
		case !ok:
			t.Errorf("%s %s: workload %q is not in the registry", s.ID, c.Label(), id)
		case ok && !spec.Runs(w):
			t.Errorf("%s %s: target %s does not run %s", s.ID, c.Label(), spec.Name, id)
		}
		if c.Test.CPU > 0 && spec.JVM {
			t.Errorf("%s %s: GOMAXPROCS on the JVM target %s", s.ID, c.Label(), spec.Name)
		}
	}
	if !(c.Published > 0) || math.IsInf(c.Published, 0) {
		t.Errorf("%s %s: published ratio %g", s.ID, c.Label(), c.Published)
	}
}

// named reports whether a side is named among the study's unavailable
// parts.
func named(s *studies.Study, side studies.Side) bool {
	return slices.ContainsFunc(s.Unavailable, func(g studies.Gap) bool {
		return g.Why != "" && (strings.Contains(g.What, side.Name) || strings.Contains(g.What, side.Target))
	})
}

// TestPublishedRatiosFollowTheFigures anchors the ratios computed from the
// figures to the studies' own headlines.
func TestPublishedRatiosFollowTheFigures(t *testing.T) {
	for _, c := range []struct {
		study, label string
		want         float64
	}{
		// "pgx CopyFrom 2.25x lib/pq CopyIn at 16x32" (rows/s, higher is better).
		{"dbi-2023", "PostgreSQL COPY 16x32: pgx / lib/pq", 214869.42 / 95665.37},
		// Sqinn-Go: times in ms, lower is better: crawshaw's 2140 ms against mattn's 2901 ms.
		{"sqinn-go", "simple/insert: crawshaw / mattn", 2901.0 / 2140},
		// The README's Go 1.0.3 table, not its Go tip one (14712 against 7053).
		{"sqlbench-2013-win-go1.0.3", "SimpleQueryRow: Go-MySQL-Driver / mymysql godrv", 7981.0 / 6992},
		// The TCP send is the faster side: 311992 ns against 5318 ns at -cpu=2.
		{"mariadb-tcp-http", "-cpu=2: TCP send 2KB / MariaDB single insert", 311992.0 / 5318},
		// The published 9-byte TCP send and the random-data insert.
		{"mariadb-tcp-http", "-cpu=4: TCP send 9 B / MariaDB single insert", 312275.0 / 4306},
		{"mariadb-tcp-http", "-cpu=8: random insert / MariaDB single insert", 312530.0 / 312220},
	} {
		s, ok := studies.Lookup(c.study)
		if !ok {
			t.Fatalf("no study %s", c.study)
		}
		i := slices.IndexFunc(s.Comparisons(), func(x studies.Comparison) bool { return x.Label() == c.label })
		if i < 0 {
			t.Errorf("%s: no comparison %q", c.study, c.label)
			continue
		}
		if got := s.Comparisons()[i].Published; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s %s: published ratio %g, want %g", c.study, c.label, got, c.want)
		}
	}
	if got := mustStudy(t, "mariadb-tcp-http").CPUs(); !slices.Equal(got, []int{2, 4, 8}) {
		t.Errorf("mariadb-tcp-http CPUs %v, want go test -cpu=2,4,8", got)
	}
	// The published memory figures: the insert's B/op and allocs/op with
	// fixed and random data at -cpu=2, the HTTP send's at -cpu=8.
	tests := mustStudy(t, "mariadb-tcp-http").Tests
	for _, c := range []struct {
		test      int
		side      string
		b, allocs float64
	}{
		{0, "MariaDB single insert", 752, 21},
		{0, "random insert", 816, 23},
		{2, "HTTP send 9 B", 6216, 67},
	} {
		if m := tests[c.test].Memory[c.side]; m.BytesPerOp != c.b || m.AllocsPerOp != c.allocs {
			t.Errorf("%s %s: published memory %+v, want %g B/op, %g allocs/op", tests[c.test].Name, c.side, m, c.b,
				c.allocs)
		}
	}
	if _, ok := studies.Lookup("nosuch"); ok || !strings.Contains(studies.UnknownError("nosuch").Error(), "dbi-2023") {
		t.Error("an unknown study is found, or its error does not list the valid ones")
	}
}

func mustStudy(t *testing.T, id string) *studies.Study {
	t.Helper()
	s, ok := studies.Lookup(id)
	if !ok {
		t.Fatalf("no study %s", id)
	}
	return s
}

// checkSource: a study is cited by public addresses (a GitHub file or tree
// at a commit, an article), never by a path of this repository's
// development set-up.
func checkSource(t *testing.T, s *studies.Study) {
	t.Helper()
	for what, u := range map[string]string{"url": s.Source.URL, "program": s.Source.Program} {
		if u == "" && what == "program" {
			continue
		}
		if !strings.HasPrefix(u, "https://") || strings.ContainsAny(u, " ()") {
			t.Errorf("%s: source %s %q is not a public address", s.ID, what, u)
		}
		if strings.HasPrefix(u, "https://github.com/") && strings.Count(u, "/") > 4 && !commitPath.MatchString(u) {
			t.Errorf("%s: source %s %q names a file or folder but no commit", s.ID, what, u)
		}
	}
	for _, text := range []string{s.Source.Document, s.Source.Table, s.Source.Date, s.Source.Machine, s.Source.URL,
		s.Source.Program} {
		if strings.Contains(text, "shared/studies") || strings.Contains(text, "../") {
			t.Errorf("%s: source cites a local path: %q", s.ID, text)
		}
	}
}

// commitPath matches a GitHub address of a file or folder at a commit.
var commitPath = regexp.MustCompile(`^https://github\.com/[^/]+/[^/]+/(blob|tree)/[0-9a-f]{7,40}(/|$)`)

// checkCauses: every cause names tests and pairs the study has, and says
// something.
func checkCauses(t *testing.T, s *studies.Study) {
	t.Helper()
	for _, k := range s.Causes {
		if k.Text == "" {
			t.Errorf("%s: a cause without text: %+v", s.ID, k)
		}
		for _, name := range k.Tests {
			if !slices.ContainsFunc(s.Tests, func(x studies.Test) bool { return x.Name == name }) {
				t.Errorf("%s: cause names test %q, which the study does not have", s.ID, name)
			}
		}
		for _, p := range k.Pairs {
			if !slices.Contains(s.Pairs, p) {
				t.Errorf("%s: cause names pair %v, which the study does not compare", s.ID, p)
			}
		}
	}
}

// TestCausesAreMeasured: every cause names its tests and pairs, and is
// either a hypothesis, saying why it is not measured, or measured: a ratio
// range for every comparison it names, its sizes and its date; and every
// study says what Go it was built with.
func TestCausesAreMeasured(t *testing.T) {
	for _, s := range studies.All() {
		if s.Source.Go == "" {
			t.Errorf("%s: no Go toolchain named (\"not stated\" when the study does not say)", s.ID)
		}
		for i, k := range s.Causes {
			name := fmt.Sprintf("%s cause %d (%.40s)", s.ID, i, k.Text)
			if len(k.Tests) == 0 || len(k.Pairs) == 0 {
				t.Errorf("%s: names %d tests and %d pairs: a cause names both", name, len(k.Tests), len(k.Pairs))
			}
			switch k.Status {
			case studies.Hypothesis:
				if k.Unmeasured == "" {
					t.Errorf("%s: a hypothesis without why it is not measured", name)
				}
				continue
			case studies.Measured:
			default:
				t.Errorf("%s: status %q, want %q or %q", name, k.Status, studies.Measured, studies.Hypothesis)
				continue
			}
			if k.Sizes == "" || k.Date == "" {
				t.Errorf("%s: measured, but no sizes (%q) or date (%q)", name, k.Sizes, k.Date)
			}
			if k.Versions != studies.VersionsPinned && k.Versions != studies.VersionsPeriod {
				t.Errorf("%s: measured with versions %q, want %q or %q", name, k.Versions, studies.VersionsPinned,
					studies.VersionsPeriod)
			}
			for _, c := range s.Comparisons() {
				if !k.Names(c) {
					continue
				}
				if low, high, ok := k.Range(c); !ok || low <= 0 || high < low {
					t.Errorf("%s: no ratio range for %s %s / %s", name, c.Test.Name, c.Num.Name, c.Den.Name)
				}
			}
		}
	}
}

// comparison returns the study's comparison of test, num / den.
func comparison(t *testing.T, s *studies.Study, test, num, den string) studies.Comparison {
	t.Helper()
	for _, c := range s.Comparisons() {
		if c.Test.Name == test && c.Num.Name == num && c.Den.Name == den {
			return c
		}
	}
	t.Fatalf("%s: no comparison %s %s / %s", s.ID, test, num, den)
	return studies.Comparison{}
}

// TestCauseOf: a measured cause applies to its tests and pairs, and only
// where the measured interval reaches the range it was measured at, with
// the versions it was measured with; a hypothesis never applies, it is
// only named.
func TestCauseOf(t *testing.T) {
	s, _ := studies.Lookup("go-sqlite-bench")
	pinned := studies.VersionsPinned
	many := comparison(t, s, "many/query/N=1000", "zombie", "mattn") // the program here 2.9-3.4x
	if e := s.CauseOf(many, 2.5, 3.0, pinned); e.Cause == nil || !strings.Contains(e.Cause.Text, "published program") {
		t.Errorf("many N=1000 zombie/mattn at [2.5, 3.0]: %+v, want the measured cause", e)
	}
	e := s.CauseOf(many, 1.9, 2.3, pinned)
	if e.Cause != nil || len(e.Missed) != 1 || e.Missed[0].RangeText(many) != "2.90-3.40×" {
		t.Errorf("many N=1000 zombie/mattn at [1.9, 2.3], below the range: %+v, want no cause, one missed", e)
	}
	if e := s.CauseOf(many, 3.5, 4.0, pinned); e.Cause != nil {
		t.Errorf("many N=1000 zombie/mattn at [3.5, 4.0], above the range: cause %q", e.Cause.Text)
	}
	if e := s.CauseOf(comparison(t, s, "many/query/N=10", "zombie", "mattn"), 1, 5, pinned); e.Cause != nil ||
		len(e.Missed) > 0 {
		t.Errorf("many N=10 zombie/mattn: %+v, want nothing: no cause names it", e)
	}
	// Ranges test by test: the same cause, another test, another range.
	conc := comparison(t, s, "concurrent/query/N=4", "craw", "mattn") // 1.39-1.58x
	if e := s.CauseOf(conc, 1.10, 1.30, pinned); e.Cause != nil {
		t.Errorf("concurrent N=4 craw/mattn at [1.10, 1.30]: cause %q, want none (N=2's range is 1.01-1.47)",
			e.Cause.Text)
	}
	if e := s.CauseOf(conc, 1.50, 1.70, pinned); e.Cause == nil {
		t.Error("concurrent N=4 craw/mattn at [1.50, 1.70]: no cause")
	}
	// A hypothesis is named, never the cause, whatever the ratio.
	sq := comparison(t, s, "many/query/N=10", "sqinn", "mattn")
	if e := s.CauseOf(sq, 0.01, 100, pinned); e.Cause != nil || len(e.Hypotheses) != 1 {
		t.Errorf("many N=10 sqinn/mattn: %+v, want one hypothesis and no cause", e)
	}
	// A cause measured with go.mod's versions explains nothing of a
	// comparison that ran the study's own: named, not applied.
	if e := s.CauseOf(many, 2.5, 3.0, studies.VersionsPeriod); e.Cause != nil || len(e.OtherVersions) != 1 ||
		len(e.Missed) > 0 {
		t.Errorf("many N=1000 zombie/mattn at the study's versions: %+v, want no cause, one of other versions", e)
	}
}
