package report

import (
	"bytes"
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
	r := New(rs, []Failure{{Name: "SimpleQuery/db=sqlite/driver=crawshaw/api=native", Reason: "wrong row"}}, classicLookup)
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
		rand.New(rand.NewPCG(seed, 42)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
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
// same, marks nothing; a row where two differ marks the better one, and
// ties for it mark both.
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
	for row, want := range map[string][]string{"Alone": nil, "Same": nil, "Two": {"modernc"}, "Tie": {"mattn", "modernc"}} {
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
	for _, want := range []string{"| Alone | ops/s | 1,000 ±0% | - | - |", "| Two | ops/s | 1,000 ±0% | **2,000** ±0% | - |"} {
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
