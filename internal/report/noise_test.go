package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"
)

// noiseResults are crafted result lines: mattn's SimpleQuery with its
// noise recorded, run 2 waiting 30% of its time for a CPU and run 4
// losing 12% of the machine to steal; and an older runner's cell, with a
// run queue but no noise record.
const noiseResults = "\n" +
	noiseMattn + "100000 ns/op 10000 ops/s 1000 runq-ns/op 0 steal-%" + noiseRest + "\n" +
	noiseMattn + "130000 ns/op 7692 ops/s 39000 runq-ns/op 0 steal-%" + noiseRest + "\n" +
	noiseMattn + "101000 ns/op 9901 ops/s 2000 runq-ns/op 0 steal-%" + noiseRest + "\n" +
	noiseMattn + "112000 ns/op 8929 ops/s 1100 runq-ns/op 12 steal-%" + noiseRest + "\n" +
	"BenchmarkSimpleQuery/db=sqlite/driver=modernc/api=sql 1000 200000 ns/op 5000 ops/s 90000 runq-ns/op\n" +
	"BenchmarkSimpleQuery/db=sqlite/driver=modernc/api=sql 1000 200000 ns/op 5000 ops/s 1000 runq-ns/op\n"

// noiseMattn and noiseRest begin and end each of mattn's lines in noiseResults.
const (
	noiseMattn = "BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 1000 "
	noiseRest  = " 3 minor-faults/op 0.002 gc/op 0 gc-cpu-sec/op"
)

func readNoiseResults(t *testing.T, text string) []*benchfmt.Result {
	t.Helper()
	var rs []*benchfmt.Result
	r := benchfmt.NewReader(strings.NewReader(text), "noise")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			rs = append(rs, res.Clone())
		}
	}
	if err := r.Err(); err != nil || len(rs) == 0 {
		t.Fatalf("%d results, %v", len(rs), err)
	}
	return rs
}

// TestNoiseLineNamesDisturbedRuns: the report counts the runs whose
// timing thread waited a tenth of their time or more for a CPU, or whose
// machine lost 5% or more to steal, among the runs that recorded their
// noise, and names them by cell and run; the noise units are neither a
// row of the memory table nor a comparison.
func TestNoiseLineNamesDisturbedRuns(t *testing.T) {
	rs := readNoiseResults(t, noiseResults)
	r := New(rs, nil, classicLookup)
	noisy, recorded := r.NoisyRuns()
	if recorded != 4 || len(noisy) != 2 || noisy[0].Run != 2 || noisy[1].Run != 4 {
		t.Fatalf("noisy %+v of %d recorded; want runs 2 and 4 of mattn's 4", noisy, recorded)
	}
	if got := noisy[0].RunQueue; got < 0.299 || got > 0.301 {
		t.Errorf("run 2's run queue share %v, want 0.3", got)
	}
	var txt bytes.Buffer
	if err := Text(&txt, r); err != nil {
		t.Fatal(err)
	}
	out := txt.String()
	for _, want := range []string{
		"disturbed runs: of 4 runs, 1 waited 10% or more of their time for a CPU (the machine's other work;\n" +
			"  run queue % below), 1 lost 5% or more of the machine to steal\n",
		"  SimpleQuery/mattn: runs 2 (30%), 4 (1%, steal 12%)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "modernc: runs") {
		t.Errorf("a cell without a noise record is listed:\n%s", out)
	}
	for _, unit := range []string{"steal-%", "minor-faults/op", "gc/op", "gc-cpu-sec/op"} {
		if strings.Contains(out, unit) {
			t.Errorf("the text report shows %s as a measure:\n%s", unit, out)
		}
	}
	var quiet bytes.Buffer
	if err := Text(&quiet, New(rs[4:], nil, classicLookup)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(quiet.String(), "disturbed runs") {
		t.Errorf("results without a noise record have a noise line:\n%s", quiet.String())
	}
}

// TestNoiseLineSumsUpManyRuns: a cell with more disturbed runs than the
// line lists one by one gets their count and range.
func TestNoiseLineSumsUpManyRuns(t *testing.T) {
	var b strings.Builder
	steal := []int{0, 0, 0, 7, 0, 0}
	for i, q := range []int{20, 50, 11, 83, 40, 1} {
		fmt.Fprintf(&b, "BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 1000 100000 ns/op"+
			" %d runq-ns/op %d steal-%%\n", q*1000, steal[i])
	}
	var txt bytes.Buffer
	if err := Text(&txt, New(readNoiseResults(t, b.String()), nil, classicLookup)); err != nil {
		t.Fatal(err)
	}
	want := "  SimpleQuery/mattn: 5 of 6 runs, 11–83%, steal up to 7%\n"
	if !strings.Contains(txt.String(), want) {
		t.Errorf("text report lacks %q:\n%s", want, txt.String())
	}
}

// TestNoiseLineFitsItsWidth: the line lists at most four cells, the rest
// as a count, each within the report's width (a brief in an 80-column
// terminal).
func TestNoiseLineFitsItsWidth(t *testing.T) {
	var b strings.Builder
	for _, driver := range []string{"mattn", "modernc", "zombiezen", "ncruces", "crawshaw", "eatonphil"} {
		for _, q := range []int{20, 50, 11, 83} {
			fmt.Fprintf(&b, "BenchmarkSimpleQueryRow/db=sqlite/driver=%s/api=sql 1000 100000 ns/op"+
				" %d runq-ns/op 0 steal-%%\n", driver, q*1000)
		}
	}
	r := New(readNoiseResults(t, b.String()), nil, classicLookup)
	r.Width = 60
	var txt bytes.Buffer
	writeNoise(&txt, r)
	out := txt.String()
	if strings.Count(out, ": runs ") != 4 || !strings.Contains(out, "  … and 2 more cells\n") {
		t.Errorf("want four cells listed and two counted:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > 60 {
			t.Errorf("a line of %d columns in a report 60 wide: %q", n, line)
		}
	}
}

// TestNoiseLineWithoutPairedRunQueue: when a cell's runs do not all carry
// runq-ns/op (a run never waited writes it as 0 runq-sec/op), the run
// queue cannot be told run by run: no run is named for it, its steal
// still is.
func TestNoiseLineWithoutPairedRunQueue(t *testing.T) {
	const text = `
BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 1000 100000 ns/op 0 runq-sec/op 0 steal-%
BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 1000 130000 ns/op 39000 runq-ns/op 0 steal-%
BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 1000 101000 ns/op 2000 runq-ns/op 9 steal-%
`
	noisy, recorded := New(readNoiseResults(t, text), nil, classicLookup).NoisyRuns()
	if recorded != 3 || len(noisy) != 1 || noisy[0].Run != 3 || noisy[0].Steal != 9 || noisy[0].RunQueue != 0 {
		t.Errorf("noisy %+v of %d; want run 3 for its steal alone", noisy, recorded)
	}
}
