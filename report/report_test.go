package report

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

func result(name string, ops float64) *benchfmt.Result {
	return &benchfmt.Result{Name: benchfmt.Name(name), Iters: 100, Values: []benchfmt.Value{
		{Value: 1e9 / ops, Unit: "ns/op"}, {Value: ops, Unit: "ops/s"},
	}}
}

func fixture() []*benchfmt.Result {
	var rs []*benchfmt.Result
	a := []float64{1000, 1100, 900, 1050, 950, 1020}
	b := []float64{2000, 2100, 1900, 2050, 1950, 2020}
	for i := range a {
		rs = append(rs, result("Q/db=sqlite/driver=a/api=sql", a[i]), result("Q/db=sqlite/driver=b/api=native", b[i]))
	}
	return rs
}

func TestSummarizeAgreesWithBenchmath(t *testing.T) {
	sums := Summarize(fixture())
	if len(sums) != 2 || sums[0].Column() != "a/sql" || sums[1].Column() != "b/native" || sums[0].Row() != "Q" {
		t.Fatalf("summaries %+v", sums)
	}
	want := benchmath.AssumeNothing.Summary(benchmath.NewSample([]float64{1000, 1100, 900, 1050, 950, 1020}, &benchmath.DefaultThresholds), 0.95)
	got := sums[0].Ops
	if got.Center != want.Center || got.Lo != want.Lo || got.Hi != want.Hi || sums[0].Runs != 6 {
		t.Errorf("ops/s summary %+v, benchmath says %+v", got, want)
	}
	// The median of an even count is the mean of the middle two.
	if m, want := sums[0].Medians["ns/op"], (1e9/1000+1e9/1020)/2; m < want-1e-6 || m > want+1e-6 {
		t.Errorf("ns/op median %v, want %v", m, want)
	}
}

func TestSummarizeFallsBackToMinMaxWithFewRuns(t *testing.T) {
	rs := fixture()[:10] // five runs each
	s := Summarize(rs)[0]
	if s.Ops.Lo != 900 || s.Ops.Hi != 1100 || s.Ops.Confidence < 0.937 || s.Ops.Confidence > 0.938 {
		t.Errorf("5-run interval [%v, %v] at %v, want [900, 1100] at 0.9375", s.Ops.Lo, s.Ops.Hi, s.Ops.Confidence)
	}
}

func TestTextMarksTheBestAndTheFailures(t *testing.T) {
	var buf bytes.Buffer
	err := Text(&buf, Summarize(fixture()), []Failure{{Name: "Q/db=sqlite/driver=c/api=sql", Reason: "wrong row"}})
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"median of 6 runs", "96.8% confidence", "a/sql", "b/native", "c/sql", " 1,010 ±", "*2,010 ±", "FAIL", "Q/db=sqlite/driver=c/api=sql: wrong row"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "*1,010") {
		t.Errorf("the slower driver is marked best:\n%s", out)
	}
}

func TestThousands(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 1234567.4: "1,234,567", -12345: "-12,345"} {
		if got := Thousands(v); got != want {
			t.Errorf("Thousands(%v) = %q, want %q", v, got, want)
		}
	}
}
