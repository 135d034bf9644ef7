package report

import (
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

func readString(t *testing.T, text string) []*benchfmt.Result {
	t.Helper()
	var rs []*benchfmt.Result
	r := benchfmt.NewReader(strings.NewReader(text), "t.txt")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			rs = append(rs, res.Clone())
		}
	}
	return rs
}

// TestPlainResults: results without sqlbench's keys are Plain, and their
// table gives each benchmark's medians in the units as written (ns/op, not
// benchfmt's sec/op); sqlbench's results are not Plain.
func TestPlainResults(t *testing.T) {
	plain := readString(t, "BenchmarkFoo-2 100 1050 ns/op 128 B/op\nBenchmarkFoo-2 100 1100 ns/op 128 B/op\n"+
		"BenchmarkFoo-2 100 1000 ns/op 128 B/op\nBenchmarkBar/db=x-2 10 5 ns/op\n")
	if !Plain(plain) {
		t.Error("a go test -bench file is not Plain")
	}
	if Plain(readString(t, "BenchmarkR/db=sqlite/driver=mattn/api=sql 100 1000 ns/op 1000000 ops/s\n")) {
		t.Error("a sqlbench file is Plain")
	}
	var b strings.Builder
	if err := PlainText(&b, plain); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"benchmark   unit   median  interval  confidence  runs\n",
		"Foo-2       ns/op  1,050   ±5%       75.0%       3\n", "            B/op   128 ",
		"Bar/db=x-2  ns/op  5       -         -           1\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("PlainText lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "sec/op") || len(PlainNote) > textlayout.Width {
		t.Errorf("PlainText shows sec/op, or the note is wider than %d:\n%s", textlayout.Width, got)
	}
}
