package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestClassifyEveryKind: each verdict kind from a crafted interval, the
// edges of the resolution included, and a resolution that changes the
// verdict of one interval.
func TestClassifyEveryKind(t *testing.T) {
	for _, c := range []struct {
		lo, hi, p float64
		want      string
	}{
		{1.02, 1.30, 0.05, Faster},             // above 1, past the resolution
		{1.01, 1.03, 0.05, Equivalent},         // above 1 within it: no difference that matters
		{1.01, 1.06, 0.05, Faster},             // above 1, reaching past it
		{0.94, 0.99, 0.05, Slower},             // below 1, reaching past it
		{0.96, 0.99, 0.05, Equivalent},         // below 1 within it
		{1.01, 1.03, 0.01, Faster},             // the same interval at ±1%: past it
		{0.70, 0.90, 0.05, Slower},             // below 1
		{0.97, 1.04, 0.05, Equivalent},         // holds 1, within ±5%
		{1 / 1.05, 1.05, 0.05, Equivalent},     // on both edges: within
		{1 / 1.05, 1.0500001, 0.05, Undecided}, // a hair past the upper edge
		{0.9523, 1.01, 0.05, Undecided},        // a hair past the lower edge (1/1.05 = 0.95238)
		{0.90, 1.20, 0.05, Undecided},          // holds 1, wider than the resolution
		{0.97, 1.04, 0.03, Undecided},          // the same interval at ±3%: too wide
		{0.90, 1.20, 0.25, Equivalent},         // the wide one at ±25%: within
		{math.Inf(-1), math.Inf(1), 0.05, Undecided},
		{1, 1, 0.05, Equivalent},
	} {
		if got := Classify(c.lo, c.hi, c.p); got != c.want {
			t.Errorf("Classify(%g, %g, %g) = %s, want %s", c.lo, c.hi, c.p, got, c.want)
		}
	}
}

// TestSettleTakesTheNearerDecision: an undecided ratio whose median is
// near 1 is estimated to settle by fitting within the resolution, long
// before its interval would exclude 1; a median far from 1 by excluding 1,
// which fitting never can.
func TestSettleTakesTheNearerDecision(t *testing.T) {
	// ln 1.01 = 0.00995, ln 0.93 = -0.0726, ln 1.10 = 0.0953, ln 1.05 = 0.0488.
	// Excluding 1: the lower side must shrink to 0.00995/0.0825 = 0.121 of
	// itself, 6/0.1206² = 412.7, 413 runs. Fitting: the upper side to
	// (0.0488-0.00995)/(0.0953-0.00995) = 0.455, 6/0.455² = 29 runs.
	q := Ratio{Ratio: 1.01, Lo: 0.93, Hi: 1.10, N: 6}
	if got := q.Settle(0.05); got != 29 {
		t.Errorf("Settle(5%%) = %d, want 29 (fitting within ±5%%)", got)
	}
	if got := q.Verdict(0.05); got != "undecided, ~29 runs" {
		t.Errorf("Verdict = %q", got)
	}
	// At ±1% the median sits at the edge: only excluding 1 is left.
	if got := q.Settle(0.01); got != 413 {
		t.Errorf("Settle(1%%) = %d, want 413 (excluding 1)", got)
	}
	for _, q := range []Ratio{{Ratio: 1.2, Lo: 1.1, Hi: 1.3, N: 6}, {Ratio: 1, Lo: 0.99, Hi: 1.01, N: 6}} {
		if got := q.Settle(0.05); got != 0 {
			t.Errorf("decided %+v: Settle %d, want 0", q, got)
		}
	}
	if got := (Ratio{Ratio: 1, Lo: math.Inf(-1), Hi: math.Inf(1), N: 1}).Verdict(0.05); got != "undecided, 1 run" {
		t.Errorf("one run: %q", got)
	}
}

// verdictSession is one session's runs of five targets against mattn,
// over machine speeds that swing far more than any difference between
// them: modernc 1.6× mattn's in every pass (faster), crawshaw 0.6×
// (slower), zombiezen within ±1% (equivalent at ±5%), ncruces swinging
// ±30% pass to pass about 1 (undecided).
func verdictSession(id string) []*benchfmt.Result {
	var rs []*benchfmt.Result
	swing := []float64{1.3, 0.75, 1.2, 0.8, 1.25, 0.7, 1.3, 0.9}
	for i, ops := range []float64{1000, 1600, 700, 1300, 900, 1800, 1100, 1500} {
		even := float64(1 - 2*(i%2)) // +1, -1, ...
		rs = append(rs,
			sessionResult("Q/db=sqlite/driver=mattn/api=sql", ops, id),
			sessionResult("Q/db=sqlite/driver=modernc/api=sql", ops*1.6, id),
			sessionResult("Q/db=sqlite/driver=crawshaw/api=native", ops*0.6, id),
			sessionResult("Q/db=sqlite/driver=zombiezen/api=native", ops*(1+0.01*even), id),
			sessionResult("Q/db=sqlite/driver=ncruces/api=sql", ops*swing[i], id))
	}
	return rs
}

// TestRatioTablesGiveEveryVerdict: a session's ratio table calls each
// target faster, slower, equivalent or undecided, says how many it
// decided, and a wider resolution turns the undecided one equivalent.
func TestRatioTablesGiveEveryVerdict(t *testing.T) {
	r := New(verdictSession("abc123"), nil, nil)
	r.Baseline = "mattn"
	want := map[string]string{"modernc": Faster, "crawshaw": Slower, "zombiezen": Equivalent, "ncruces": Undecided}
	for _, q := range r.Tables()[0].Ratios("mattn") {
		if got := q.Kind(r.resolution()); got != want[q.Col] {
			t.Errorf("%s: %s %s, want %s", q.Col, FormatRatio(q.Ratio), FormatRatioInterval(q), want[q.Col])
		}
	}
	d, ok := r.RatioDecisions()
	if !ok || d != (Decisions{Faster: 1, Slower: 1, Equivalent: 1, Undecided: 1}) {
		t.Errorf("RatioDecisions = %+v, %v", d, ok)
	}
	var text bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"faster", "slower", "equivalent", "undecided, ~",
		"3 of 4 decided: 1 faster, 1 slower, 1 equivalent; 1 undecided at ±5%"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("the text lacks %q:\n%s", w, text.String())
		}
	}
	r.Resolution = 0.5
	if d, _ := r.RatioDecisions(); d != (Decisions{Faster: 1, Slower: 1, Equivalent: 2}) {
		t.Errorf("at ±50%%: %+v, want ncruces equivalent too", d)
	}
	if got := d.String(); got != "3 of 4 decided: 1 faster, 1 slower, 1 equivalent; 1 undecided" {
		t.Errorf("Decisions.String() = %q", got)
	}
}

// TestResolutionReachesJSONCSVAndMarkdown: the resolution asked for and
// each cell's verdict are in the JSON, the CSV and the Markdown.
func TestResolutionReachesJSONCSVAndMarkdown(t *testing.T) {
	r := New(verdictSession("abc123"), nil, nil)
	r.Baseline, r.Resolution = "mattn", 0.5
	var b bytes.Buffer
	if err := JSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc JSONDocument
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Resolution != 0.5 || doc.Decided == nil ||
		*doc.Decided != (JSONDecisions{Faster: 1, Slower: 1, Equivalent: 2}) {
		t.Errorf("JSON resolution %g, decided %+v", doc.Resolution, doc.Decided)
	}
	verdicts := map[string]string{}
	for _, c := range doc.Cells {
		if c.Ratio != nil {
			verdicts[c.Driver] = c.Ratio.Verdict
			if c.Ratio.Baseline != "mattn" || c.Ratio.Resolution != 0.5 || c.Ratio.Lo == nil || c.Ratio.Hi == nil {
				t.Errorf("%s: %+v", c.Name, *c.Ratio)
			}
		}
	}
	if verdicts["modernc"] != Faster || verdicts["ncruces"] != Equivalent || verdicts["mattn"] != "" ||
		len(verdicts) != 4 {
		t.Errorf("JSON verdicts %v", verdicts)
	}
	b.Reset()
	if err := CSV(&b, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, row := range rows[1:] {
		if row[col["target"]] == "crawshaw" &&
			(row[col["verdict"]] != Slower || row[col["resolution"]] != "0.5" || row[col["baseline"]] != "mattn") {
			t.Errorf("CSV crawshaw: %v", row)
		}
	}
	b.Reset()
	if err := Markdown(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"resolution ±50% (between 0.667× and 1.500×", "| equivalent |",
		"4 of 4 decided: 1 faster, 1 slower, 2 equivalent; 0 undecided at ±50%"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("the Markdown lacks %q:\n%s", w, b.String())
		}
	}
}

// TestParseResolution: fractions and percentages; nothing at or beyond 0
// and 100%.
func TestParseResolution(t *testing.T) {
	for s, want := range map[string]float64{"0.05": 0.05, "5%": 0.05, " 12.5% ": 0.125} {
		if got, err := ParseResolution(s); err != nil || math.Abs(got-want) > 1e-12 {
			t.Errorf("ParseResolution(%q) = %g, %v", s, got, err)
		}
	}
	for _, s := range []string{"0", "0%", "-5%", "1", "150%", "abc", "", "NaN"} {
		if _, err := ParseResolution(s); err == nil {
			t.Errorf("ParseResolution(%q) took it", s)
		}
	}
}
