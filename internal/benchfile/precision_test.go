package benchfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestWriteKeepsTheMeasuredPrecision: values reach the file with the
// precision they were measured with, not float64's noise: per-operation
// values to 1/Iters, rates to the digits of the run's total time, integers
// as they are.
func TestWriteKeepsTheMeasuredPrecision(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.txt")
	w, err := Create(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	ns := 12242538.0 / 1000 // a run of 1,000 operations in 12,242,538 ns
	r := &benchfmt.Result{Name: benchfmt.Name("Q/db=sqlite/driver=mattn/api=sql"), Iters: 1000,
		Values: []benchfmt.Value{
			{Value: ns, Unit: "ns/op"}, {Value: 1e9 / ns, Unit: "ops/s"},
			{Value: 0.1 + 0.2 + 623.78, Unit: "B/op"}, {Value: 87.02500000000039, Unit: "wait-ns/op"},
			{Value: 1.1030528e+07, Unit: "peak-RSS-B"}, {Value: 44368.23300000001, Unit: "widgets"},
		}}
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "BenchmarkQ/db=sqlite/driver=mattn/api=sql 1000 12242.538 ns/op 81682.409 ops/s 624.08 B/op 87.025 " +
		"wait-ns/op 1.1030528e+07 peak-RSS-B 44368.233 widgets\n"
	if !strings.HasSuffix(string(b), want) {
		t.Errorf("file ends\n%s\nwant\n%s", b[strings.LastIndex(string(b[:len(b)-1]), "\n")+1:], want)
	}
	// A result read back (benchfmt scales ns/op to sec/op) rounds alike.
	set, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := Precise(set.Results[0])
	if v := written(got, "ns/op"); v != 12242.538 {
		t.Errorf("ns/op read back and rounded: %v", v)
	}
}

// TestReadDropsFloatNoise: a file another writer wrote with float64's
// noise reads back without it, and its other digits kept.
func TestReadDropsFloatNoise(t *testing.T) {
	set, err := Read(strings.NewReader("BenchmarkQ 100 44368.23300000001 ns/op 0.123456789 hits/op 7 B/op\n"), "x")
	if err != nil {
		t.Fatal(err)
	}
	r := set.Results[0]
	for unit, want := range map[string]float64{"ns/op": 44368.233, "hits/op": 0.123456789, "B/op": 7} {
		if v := written(r, unit); v != want {
			t.Errorf("%s read back as %v, want %v", unit, v, want)
		}
	}
}

// written returns r's value of unit as the file writes it (benchfmt reads
// ns/op as sec/op and keeps the written one as OrigValue).
func written(r *benchfmt.Result, unit string) float64 {
	for _, v := range r.Values {
		if unitOf(v) == unit {
			return valueOf(v)
		}
	}
	return -1
}

// TestZeroTimesReadInTheirUnit: a time per operation of exactly 0 (a run
// queue never waited in) is written so that benchfmt reads it in the same
// unit as the non-zero values of that unit, the one benchstat groups by
// (benchfmt tidies only a value tidying changes), and sqlbench reads it
// back in the unit it wrote.
func TestZeroTimesReadInTheirUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "z.txt")
	w, err := Create(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	for _, rq := range []float64{0, 12.5} {
		r := &benchfmt.Result{Name: benchfmt.Name("Q/db=sqlite/driver=mattn/api=sql"), Iters: 1000,
			Values: []benchfmt.Value{
				{Value: 1000, Unit: "ns/op"}, {Value: rq, Unit: "runq-ns/op"}, {Value: 0, Unit: "B/op"}}}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		if r.Values[1].Unit != "runq-ns/op" {
			t.Errorf("the result in memory changed unit: %+v", r.Values[1])
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// benchfmt, as benchstat reads the file: one unit for both runs.
	rd := benchfmt.NewReader(strings.NewReader(string(b)), "z")
	units := map[string]bool{}
	for rd.Scan() {
		if r, ok := rd.Result().(*benchfmt.Result); ok {
			units[r.Values[1].Unit] = true
			if r.Values[2].Unit != "B/op" {
				t.Errorf("0 B/op read as %+v", r.Values[2])
			}
		}
	}
	if len(units) != 1 || !units["runq-sec/op"] {
		t.Errorf("benchfmt reads the run queue in units %v, want runq-sec/op alone:\n%s", units, b)
	}
	// sqlbench's own reader: the unit as written, 0 and 12.5.
	set, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{0, 12.5} {
		v := set.Results[i].Values[1]
		if v.OrigUnit != "runq-ns/op" || v.OrigValue != want {
			t.Errorf("run %d: read %+v, want %v runq-ns/op", i, v, want)
		}
	}
}
