package report

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// sessionResult is a result of a session of the given id.
func sessionResult(name string, ops float64, session string) *benchfmt.Result {
	r := result(name, ops)
	if session != "" {
		r.SetConfig("session-id", session)
		pos, _ := r.ConfigIndex("session-id")
		r.Config[pos].File = true
	}
	return r
}

// driftRuns are six runs whose machine sped up and slowed down from pass to
// pass by far more than the 10% between the two targets.
var driftRuns = []float64{1000, 1600, 700, 1300, 900, 1800}

func TestRatiosPairedByPass(t *testing.T) {
	var rs []*benchfmt.Result
	for _, ops := range driftRuns {
		rs = append(rs,
			sessionResult("Q/db=sqlite/driver=mattn/api=sql", ops, "abc123"),
			sessionResult("Q/db=sqlite/driver=modernc/api=sql", ops*1.10, "abc123"),
			sessionResult("Q/db=sqlite/driver=crawshaw/api=native", ops*(1+0.02*(ops/1000-1.2)), "abc123"))
	}
	tb := New(rs, nil, nil).Tables()[0]
	qs := tb.Ratios("mattn")
	if len(qs) != 2 {
		t.Fatalf("%d ratios, want 2: %+v", len(qs), qs)
	}
	m := qs[0]
	if m.Col != "modernc" || m.How != RatioPaired || m.N != 6 || m.Ratio < 1.0999 || m.Ratio > 1.1001 || !m.Clear() ||
		m.Verdict(DefaultResolution) != "faster" {
		t.Errorf("modernc against mattn: %+v %s", m, m.Verdict(DefaultResolution))
	}
	if c := qs[1]; c.Col != "crawshaw" || c.How != RatioPaired || c.Clear() ||
		c.Verdict(DefaultResolution) != "equivalent" {
		t.Errorf("crawshaw against mattn, within 2%% both ways: %+v %s", c, c.Verdict(DefaultResolution))
	}
	// The same runs from two sessions do not pair: the drift swamps the
	// 10%, and the ratio says so.
	var split []*benchfmt.Result
	for _, r := range rs {
		if r.Name.String() == "Q/db=sqlite/driver=modernc/api=sql" {
			r = sessionResult(r.Name.String(), r.Values[1].Value, "zzz999")
		}
		split = append(split, r)
	}
	u := New(split, nil, nil).Tables()[0].Ratios("mattn")[0]
	if u.How != RatioUnpaired || u.Clear() || u.Confidence != Confidence || u.Lo >= 1 || u.Hi <= 1 {
		t.Errorf("unpaired across sessions: %+v", u)
	}
	if again := New(split, nil, nil).Tables()[0].Ratios("mattn")[0]; again != u {
		t.Errorf("the bootstrap is not the same twice: %+v, %+v", u, again)
	}
}

func TestRatioUnpairedClearDifference(t *testing.T) {
	var rs []*benchfmt.Result
	for i, ops := range []float64{1000, 1010, 990, 1005, 995, 1002} {
		rs = append(rs, result("Q/db=sqlite/driver=mattn/api=sql", ops),
			result("Q/db=sqlite/driver=modernc/api=sql", 2*ops+float64(i)))
	}
	q := New(rs, nil, nil).Tables()[0].Ratios("mattn")[0]
	if q.How != RatioUnpaired || !q.Clear() || q.Verdict(DefaultResolution) != "faster" || q.Lo < 1.9 || q.Hi > 2.1 ||
		q.Ratio < 1.98 || q.Ratio > 2.02 {
		t.Errorf("twice as fast, no session ids: %+v", q)
	}
}

// TestBaselineTablesInEveryFormat: the text, Markdown and HTML reports set
// every target against the baseline, the first target in catalogue order
// by default or the one asked for, and a table without that target gets no
// ratio table.
func TestBaselineTablesInEveryFormat(t *testing.T) {
	var rs []*benchfmt.Result
	for _, ops := range driftRuns {
		rs = append(rs,
			sessionResult("Q/db=sqlite/driver=mattn/api=sql", ops, "abc123"),
			sessionResult("Q/db=sqlite/driver=modernc/api=sql", ops*1.10, "abc123"),
			sessionResult("Q/db=postgres/driver=pq/api=sql/net=tcp", ops, "abc123"),
			sessionResult("Q/db=postgres/driver=pgx/api=native/net=tcp", ops*2, "abc123"))
	}
	r := New(rs, nil, nil)
	var text, md, html bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": html.String()} {
		for _, want := range []string{"· sqlite · ops/s ÷ mattn", "1.10×", "· postgres · ops/s ÷ pq", "2.00×", "faster",
			"paired"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	for _, line := range strings.Split(text.String(), "\n") {
		if n := len([]rune(line)); n > 100 && !strings.HasPrefix(line, "run-to-run spread") {
			t.Errorf("a text line of %d columns: %q", n, line)
		}
	}
	r.Baseline = "modernc"
	text.Reset()
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if s := text.String(); !strings.Contains(s, "ops/s ÷ modernc's") || strings.Contains(s, "ops/s ÷ pq's") ||
		!strings.Contains(s, "0.91×") || !strings.Contains(s, "slower") {
		t.Errorf("--baseline modernc:\n%s", s)
	}
	r.Baseline = "zombiezen"
	text.Reset()
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if s := text.String(); strings.Contains(s, "(baseline)") ||
		!strings.Contains(s, "no table has the baseline zombiezen") {
		t.Errorf("a baseline in no table:\n%s", s)
	}
}

// TestUnclearRatioSaysHowManyRunsWouldSettleIt: a ratio whose interval
// holds 1 says how many runs per cell would make the interval clear it
// (narrowing as 1/√runs about its median), and none where its median is 1.
func TestUnclearRatioSaysHowManyRunsWouldSettleIt(t *testing.T) {
	q := Ratio{Ratio: 0.9, Lo: 0.8, Hi: 1.05, N: 6}
	// ln 0.9 / (ln 0.9 - ln 1.05) = 0.684 of the side above 1 may stay:
	// 6 / 0.684² = 12.8 runs; the median lies outside ±5%, so it can
	// never fit within it.
	if got := q.Settle(DefaultResolution); got != 13 {
		t.Errorf("Settle() = %d, want 13", got)
	}
	if got := q.Verdict(DefaultResolution); got != "undecided, ~13 runs" {
		t.Errorf("Verdict() = %q", got)
	}
	// A median of 1 never excludes 1; within ±1% it never fits either.
	if got := (Ratio{Ratio: 1, Lo: 0.9, Hi: 1.1, N: 6}).Verdict(0.001); got != "undecided, >1000 runs" {
		t.Errorf("a median of 1 at ±0.1%%: %q", got)
	}
	if got := (Ratio{Ratio: 0.9, Lo: 0.8, Hi: 0.95, N: 6}); got.Settle(DefaultResolution) != 0 ||
		got.Verdict(DefaultResolution) != "slower" {
		t.Errorf("a clear ratio: settle %d, %q", got.Settle(DefaultResolution), got.Verdict(DefaultResolution))
	}
}
