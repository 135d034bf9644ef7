package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

func TestJSONRoundTrip(t *testing.T) {
	r := fixtureReport(t)
	var buf bytes.Buffer
	if err := JSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc JSONDocument
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Cells
	if want := r.Records(); !reflect.DeepEqual(got, want) {
		t.Errorf("JSON does not read back to the records:\n got %+v\nwant %+v", got[0], want[0])
	}
	if doc.Schema != JSONSchema || doc.Confidence != Confidence {
		t.Errorf("schema %d, confidence %v", doc.Schema, doc.Confidence)
	}
	// The raw runs are there, in file order, beside the statistics.
	for _, rec := range got {
		for unit, st := range rec.Stats {
			if vals := rec.RunValues[unit]; len(vals) != st.N || slices.Min(vals) != st.Min || slices.Max(vals) != st.Max {
				t.Errorf("%s %s: runs %v against n=%d min %v max %v", rec.Name, unit, vals, st.N, st.Min, st.Max)
			}
		}
	}
	if strings.Contains(buf.String(), "hunter2secret") {
		t.Error("the password is in the JSON")
	}
	rec := got[0]
	st := rec.Stats["ops/s"]
	if st.N != 6 || st.CILo == nil || st.Min > st.Median || st.Max < st.Median || st.StdDev <= 0 ||
		rec.Config["cpu"] != "Test CPU @ 3.0GHz" || rec.Stats["allocs/op"].Median != 19 || rec.Stats["p99-ns/op"].N != 6 {
		t.Errorf("first record %+v", rec)
	}
}

func TestCSVRoundTrip(t *testing.T) {
	r := fixtureReport(t)
	var buf bytes.Buffer
	if err := CSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	recs := r.Records()
	if len(rows) != len(recs)+1 {
		t.Fatalf("%d rows for %d cells", len(rows), len(recs))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for i, rec := range recs {
		row := rows[i+1]
		if row[col["name"]] != rec.Name || row[col["db"]] != rec.DB || row[col["target"]] != rec.Target ||
			row[col["runs"]] != strconv.Itoa(rec.Runs) {
			t.Errorf("row %d: %v, want %s", i, row[:10], rec.Name)
		}
		for unit, st := range rec.Stats {
			for stat, want := range map[string]float64{"median": st.Median, "mean": st.Mean, "min": st.Min, "max": st.Max, "stddev": st.StdDev, "confidence": st.Confidence} {
				got, err := strconv.ParseFloat(row[col[unit+" "+stat]], 64)
				if err != nil || got != want {
					t.Errorf("%s %s %s: csv %q, want %v", rec.Name, unit, stat, row[col[unit+" "+stat]], want)
				}
			}
			if lo, _ := strconv.ParseFloat(row[col[unit+" ci_lo"]], 64); st.CILo != nil && lo != *st.CILo {
				t.Errorf("%s %s ci_lo: csv %v, want %v", rec.Name, unit, lo, *st.CILo)
			}
		}
		if !strings.Contains(row[col["config"]], "kernel=6.1.0-test") || strings.Contains(row[col["config"]], "hunter2secret") {
			t.Errorf("config column %q", row[col["config"]])
		}
	}
}

func TestMissingUnitIsBlankNotZero(t *testing.T) {
	rs := fixture()
	rs[0].Values = rs[0].Values[:1] // a JDBC-like line: no ops/s, no allocs
	r := New(rs[:1], nil, nil)
	var buf bytes.Buffer
	if err := CSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	rows, _ := csv.NewReader(&buf).ReadAll()
	for i, h := range rows[0] {
		if strings.HasPrefix(h, "ops/s") {
			t.Errorf("column %q for a unit nobody measured (value %q)", h, rows[1][i])
		}
	}
}

// TestRecordsNameTheTarget: a record carries the name the user typed after
// --targets, not the driver key; an unknown pair is driver/api.
func TestRecordsNameTheTarget(t *testing.T) {
	r := New([]*benchfmt.Result{
		result("Q/db=mariadb/driver=go-sql-driver/api=sql/net=tcp", 1000),
		result("Q/db=sqlite/driver=nosuch/api=native", 1000),
	}, nil, nil)
	got := map[string]string{}
	for _, rec := range r.Records() {
		got[rec.DB] = rec.Target
	}
	if want := map[string]string{"mariadb": "mysql", "sqlite": "nosuch/native"}; !reflect.DeepEqual(got, want) {
		t.Errorf("targets %q, want %q", got, want)
	}
}

// TestRecordsCarryTheRunsPrecision: statistics are written one decimal
// beyond the runs' own precision, not with float64's noise (a mean of
// 624.08 and 624.09 is 624.085, not 624.0850000000001).
func TestRecordsCarryTheRunsPrecision(t *testing.T) {
	var rs []*benchfmt.Result
	for _, v := range []float64{624.08, 624.09, 0.1 + 0.2 + 623.78, 624.07, 624.11, 624.1} {
		rs = append(rs, &benchfmt.Result{Name: benchfmt.Name("Q/db=sqlite/driver=mattn/api=sql"), Iters: 100, Values: []benchfmt.Value{
			{Value: v, Unit: "B/op"}, {Value: 44368.233, Unit: "ops/s"}}})
	}
	rs[2].Values[0].Value = 624.08 // as benchfile.Read gives it back
	r := New(rs, nil, nil)
	var js, cs bytes.Buffer
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if err := CSV(&cs, r); err != nil {
		t.Fatal(err)
	}
	noise := regexp.MustCompile(`\d\.?\d{13,}`)
	for name, out := range map[string]string{"json": js.String(), "csv": cs.String()} {
		if m := noise.FindString(out); m != "" {
			t.Errorf("%s carries float64 noise: %s\n%s", name, m, out)
		}
	}
	st := r.Records()[0].Stats["B/op"]
	if st.Mean != 624.088 || st.Median != 624.085 || st.Min != 624.07 || st.StdDev != 0.015 {
		t.Errorf("B/op statistics %+v", st)
	}
}
