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
			if vals := rec.RunValues[unit]; len(vals) != st.N || slices.Min(vals) != st.Min ||
				slices.Max(vals) != st.Max {
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
		rec.Config["cpu"] != "Test CPU @ 3.0GHz" || rec.Stats["allocs/op"].Median != 19 ||
		rec.Stats["p99-ns/op"].N != 6 {
		t.Errorf("first record %+v", rec)
	}
}

// TestCSVRoundTrip: the CSV is tidy, one row per cell and unit with its
// statistics, and the configuration once, in the sidecar ConfigCSV writes,
// numbered by the rows' config column.
func TestCSVRoundTrip(t *testing.T) {
	r := fixtureReport(t)
	var buf, cfgBuf bytes.Buffer
	if err := CSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	if err := ConfigCSV(&cfgBuf, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cfgRows, err := csv.NewReader(&cfgBuf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	configs := map[string]map[string]string{}
	for _, row := range cfgRows[1:] {
		if configs[row[0]] == nil {
			configs[row[0]] = map[string]string{}
		}
		configs[row[0]][row[1]] = row[2]
	}
	recs := r.Records()
	byCellUnit := map[[2]string][]string{}
	for _, row := range rows[1:] {
		if len(row) != len(rows[0]) {
			t.Fatalf("row %v has %d columns, the header %d", row, len(row), len(rows[0]))
		}
		key := [2]string{row[col["name"]], row[col["unit"]]}
		if byCellUnit[key] != nil {
			t.Errorf("two rows for %v", key)
		}
		byCellUnit[key] = row
	}
	units := 0
	for _, rec := range recs {
		units += len(rec.Stats)
		for unit, st := range rec.Stats {
			row := byCellUnit[[2]string{rec.Name, unit}]
			if row == nil {
				t.Errorf("no row for %s %s", rec.Name, unit)
				continue
			}
			if row[col["db"]] != rec.DB || row[col["target"]] != rec.Target ||
				row[col["runs"]] != strconv.Itoa(rec.Runs) ||
				row[col["op_unit"]] != rec.Unit {
				t.Errorf("row %v, want %s", row[:12], rec.Name)
			}
			for stat, want := range map[string]float64{"median": st.Median, "mean": st.Mean, "min": st.Min,
				"max": st.Max, "stddev": st.StdDev, "confidence": st.Confidence} {
				got, err := strconv.ParseFloat(row[col[stat]], 64)
				if err != nil || got != want {
					t.Errorf("%s %s %s: csv %q, want %v", rec.Name, unit, stat, row[col[stat]], want)
				}
			}
			if lo, _ := strconv.ParseFloat(row[col["ci_lo"]], 64); st.CILo != nil && lo != *st.CILo {
				t.Errorf("%s %s ci_lo: csv %v, want %v", rec.Name, unit, lo, *st.CILo)
			}
			if cfg := configs[row[col["config"]]]; cfg["kernel"] != "6.1.0-test" ||
				!reflect.DeepEqual(cfg, rec.Config) {
				t.Errorf("%s: config %s is %v, want %v", rec.Name, row[col["config"]], cfg, rec.Config)
			}
		}
	}
	if len(rows)-1 != units {
		t.Errorf("%d rows for %d cells' %d units", len(rows)-1, len(recs), units)
	}
	if strings.Contains(buf.String(), "kernel") || strings.Contains(cfgBuf.String(), "hunter2secret") {
		t.Error("the configuration is in the rows, or the password in the configuration")
	}
	if n := strings.Count(cfgBuf.String(), "\n"); n > 2*len(recs[0].Config)+1 {
		t.Errorf("the configuration is written %d lines for %d keys: not once", n, len(recs[0].Config))
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
	for _, row := range rows[1:] {
		if row[12] != rs[0].Values[0].Unit {
			t.Errorf("a row for %q, a unit nobody measured: %v", row[12], row)
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
		rs = append(rs, &benchfmt.Result{Name: benchfmt.Name("Q/db=sqlite/driver=mattn/api=sql"), Iters: 100,
			Values: []benchfmt.Value{
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
