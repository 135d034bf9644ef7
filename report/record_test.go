package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"reflect"
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
	var got []Record
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if want := r.Records(); !reflect.DeepEqual(got, want) {
		t.Errorf("JSON does not read back to the records:\n got %+v\nwant %+v", got[0], want[0])
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
