package report

import (
	"bytes"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/targets"
)

// orderFixture is the fixture's results plus MariaDB cells of go-sql-driver
// (target mysql) and Connector/J (target jdbc-mysql), written in the
// reverse of catalogue order.
func orderFixture(t *testing.T) []*benchfmt.Result {
	t.Helper()
	set, err := benchfile.ReadFile("testdata/fixture.txt")
	if err != nil {
		t.Fatal(err)
	}
	rs := slices.Clone(set.Results)
	for i := range 6 {
		rs = append(rs, result("SimpleQuery/db=mariadb/driver=connectorj/api=jdbc/net=tcp", 900+float64(i)),
			result("SimpleQuery/db=mariadb/driver=go-sql-driver/api=sql/net=tcp", 1000+float64(i)))
	}
	return rs
}

// renderAll returns the text, Markdown and HTML reports of rs.
func renderAll(t *testing.T, rs []*benchfmt.Result) (text, md, html string) {
	t.Helper()
	r := New(rs, []Failure{{Name: "SimpleQuery/db=sqlite/driver=crawshaw/api=native", Reason: "wrong row"}},
		classicLookup)
	var tb, mb, hb bytes.Buffer
	if err := Text(&tb, r); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&mb, r); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&hb, r); err != nil {
		t.Fatal(err)
	}
	return tb.String(), mb.String(), hb.String()
}

// TestShuffledResultsGiveIdenticalReports: the same results in two shuffled
// orders give the same text, Markdown and HTML reports, with the columns
// named by target (mysql, not go-sql-driver/sql) in catalogue order.
func TestShuffledResultsGiveIdenticalReports(t *testing.T) {
	rs := orderFixture(t)
	text0, md0, html0 := renderAll(t, rs)
	for seed := range uint64(2) {
		shuffled := slices.Clone(rs)
		rand.New(rand.NewPCG(seed, 42)).Shuffle(len(shuffled),
			func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if slices.Equal(shuffled, rs) {
			t.Fatal("the shuffle left the results in order")
		}
		text, md, html := renderAll(t, shuffled)
		if text != text0 {
			t.Errorf("seed %d: the text report differs:\n%s\n--- unshuffled:\n%s", seed, text, text0)
		}
		if md != md0 {
			t.Errorf("seed %d: the Markdown report differs", seed)
		}
		if html != html0 {
			t.Errorf("seed %d: the HTML report differs", seed)
		}
	}
	for _, want := range []string{
		"| workload | unit | mysql | jdbc-mysql |",
		"| workload | unit | pq | pgx | pgx-native |",
		"| workload | unit | mattn | modernc | crawshaw |",
	} {
		if !strings.Contains(md0, want) {
			t.Errorf("markdown lacks the header %q", want)
		}
	}
	if strings.Contains(md0, "go-sql-driver/sql") || strings.Contains(text0, "pgx/native") {
		t.Error("a column is named driver/api where the catalogue names its target")
	}
	// The order of the catalogue, whatever it is.
	var order []string
	for _, s := range targets.All() {
		if slices.Contains([]string{"pq", "pgx", "pgx-native"}, s.Name) {
			order = append(order, s.Name)
		}
	}
	if got := strings.Join(order, " | "); !strings.Contains(md0, "| workload | unit | "+got+" |") {
		t.Errorf("postgres columns not in catalogue order %q", got)
	}
}

// TestBestOnlyWhereThereIsAChoice: a row with one value, or values all the
// same, marks nothing; a row where two differ clearly marks the better one,
// and a tie for the best marks none.
func TestBestOnlyWhereThereIsAChoice(t *testing.T) {
	var rs []*benchfmt.Result
	for range 6 {
		rs = append(rs,
			result("Alone/db=sqlite/driver=mattn/api=sql", 1000),
			result("Same/db=sqlite/driver=mattn/api=sql", 1000), result("Same/db=sqlite/driver=modernc/api=sql", 1000),
			result("Two/db=sqlite/driver=mattn/api=sql", 1000), result("Two/db=sqlite/driver=modernc/api=sql", 2000),
			result("Tie/db=sqlite/driver=mattn/api=sql", 3000), result("Tie/db=sqlite/driver=modernc/api=sql", 3000),
			result("Tie/db=sqlite/driver=crawshaw/api=native", 1000))
	}
	r := New(rs, nil, nil)
	tb := r.Tables()[0]
	for row, want := range map[string][]string{"Alone": nil, "Same": nil, "Two": {"modernc"}, "Tie": nil} {
		if got := tb.Best(row); !slices.Equal(got, want) {
			t.Errorf("best of %s: %v, want %v", row, got, want)
		}
	}
	var text, md bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(text.String(), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && (f[0] == "Alone" || f[0] == "Same") && strings.Contains(line, "*") {
			t.Errorf("a row without a choice is marked: %q", line)
		}
	}
	for _, want := range []string{"| Alone | ops/s | 1,000 ±0% | - | - |",
		"| Two | ops/s | 1,000 ±0% | **2,000** ±0% | - |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var alone []*benchfmt.Result
	for _, x := range rs {
		if strings.HasPrefix(x.Name.String(), "Alone/") {
			alone = append(alone, x)
		}
	}
	var b bytes.Buffer
	if err := Text(&b, New(alone, nil, nil)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "1,000 ±0%") || strings.Contains(b.String(), "*1,000") {
		t.Errorf("a one-column table marks a best:\n%s", b.String())
	}
}

// TestBestOnlyWhereIntervalsClear: the best is marked only where its
// confidence interval clears every other target's, with crafted runs: a
// higher median whose interval overlaps the runner-up's is a tie (no mark
// in text, Markdown or HTML), one whose interval lies wholly above is
// marked; in a lower-is-better unit the same holds the other way; a cell
// whose runs are too few for any interval marks nothing.
func TestBestOnlyWhereIntervalsClear(t *testing.T) {
	runs := map[string][]float64{
		// Overlap: medians 1100 and 1000, intervals [700,1500] and [600,1400].
		"Overlap/db=sqlite/driver=mattn/api=sql":   {700, 900, 1000, 1200, 1300, 1500},
		"Overlap/db=sqlite/driver=modernc/api=sql": {600, 800, 950, 1050, 1300, 1400},
		// Clear: [1900,2100] against [900,1100].
		"Clear/db=sqlite/driver=mattn/api=sql":   {900, 950, 1000, 1000, 1050, 1100},
		"Clear/db=sqlite/driver=modernc/api=sql": {1900, 1950, 2000, 2000, 2050, 2100},
		// Third: the best clears the runner-up but not a wide third.
		"Third/db=sqlite/driver=mattn/api=sql":       {900, 950, 1000, 1000, 1050, 1100},
		"Third/db=sqlite/driver=modernc/api=sql":     {1900, 1950, 2000, 2000, 2050, 2100},
		"Third/db=sqlite/driver=crawshaw/api=native": {100, 200, 300, 400, 500, 3000},
	}
	var rs []*benchfmt.Result
	for i := range 6 {
		for _, name := range slices.Sorted(maps.Keys(runs)) {
			rs = append(rs, result(name, runs[name][i]))
		}
	}
	r := New(rs, nil, nil)
	tb := r.Tables()[0]
	for row, want := range map[string][]string{"Overlap": nil, "Clear": {"modernc"}, "Third": nil} {
		if got := tb.Best(row); !slices.Equal(got, want) {
			t.Errorf("best of %s: %v, want %v", row, got, want)
		}
		// ns/op, lower is better: the same column or none.
		if got := tb.BestIn(row, "ns/op", false); !slices.Equal(got, want) {
			t.Errorf("best ns/op of %s: %v, want %v", row, got, want)
		}
	}
	var text, md, html bytes.Buffer
	for _, w := range []struct {
		f func(io.Writer, *Report) error
		b *bytes.Buffer
	}{{Text, &text}, {Markdown, &md}, {HTML, &html}} {
		if err := w.f(w.b, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range strings.Split(text.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[1] != "ops/s" {
			continue // not a row of the family table
		}
		marked := strings.Contains(line, "*")
		if (f[0] == "Overlap" || f[0] == "Third") && marked {
			t.Errorf("a tie is marked: %q", line)
		}
		if f[0] == "Clear" && !strings.Contains(line, "*2,000") {
			t.Errorf("a clear best is not marked: %q", line)
		}
	}
	if !strings.Contains(text.String(), "no mark: a tie") {
		t.Errorf("the legend does not say an unmarked row is a tie:\n%s", text.String())
	}
	if n := strings.Count(md.String(), "**2,000**"); n != 1 || strings.Count(md.String(), "**1,100**") != 0 {
		t.Errorf("markdown bolds %d clear bests, want 1, and no tie:\n%s", n, md.String())
	}
	if n := strings.Count(html.String(), "<b>2,000</b>"); n != 1 || strings.Contains(html.String(), "<b>1,100</b>") {
		t.Errorf("html bolds %d clear bests, want 1, and no tie", n)
	}
	// Two runs a side: no interval at any level, so no mark.
	r2 := New([]*benchfmt.Result{result("Few/db=sqlite/driver=mattn/api=sql", 1000),
		result("Few/db=sqlite/driver=modernc/api=sql", 9000)}, nil, nil)
	if got := r2.Tables()[0].Best("Few"); got != nil {
		t.Errorf("one run a side marks %v", got)
	}
}
