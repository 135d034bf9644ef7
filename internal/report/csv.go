package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// csvStatColumns names the statistics written for each unit, in order.
func csvStatColumns() []string {
	return []string{"n", "median", "mean", "min", "max", "stddev", "ci_lo", "ci_hi", "confidence"}
}

// CSV writes the report's records, one row per cell: name, workload,
// family, unit, db, driver, api, net, target (the catalogue's name), the other keys (k=v joined by '/'),
// runs, then for each unit measured "<unit> <statistic>" columns (blank
// where the cell did not measure the unit), then the cell's ratio to its
// table's baseline with its verdict (csvRatioColumns; blank without one),
// then config: the file
// configuration as key=value lines joined by "; ". Numbers are written with
// the precision of the runs (RecordStat).
func CSV(w io.Writer, r *Report) error {
	recs := r.Records()
	units := recordUnits(recs)
	cw := csv.NewWriter(w)
	header := []string{"name", "workload", "family", "unit", "db", "driver", "api", "net", "target", "keys", "runs"}
	for _, u := range units {
		for _, s := range csvStatColumns() {
			header = append(header, u+" "+s)
		}
	}
	header = append(append(header, csvRatioColumns()...), "config")
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	for i, rec := range recs {
		row := []string{rec.Name, rec.Workload, rec.Family, rec.Unit, rec.DB, rec.Driver, rec.API, rec.Net, rec.Target,
			otherKeys(rec.Keys), strconv.Itoa(rec.Runs)}
		for _, u := range units {
			st, ok := rec.Stats[u]
			if !ok {
				row = append(row, make([]string, len(csvStatColumns()))...)
				continue
			}
			row = append(row, strconv.Itoa(st.N), num(st.Median), num(st.Mean), num(st.Min), num(st.Max),
				num(st.StdDev), optNum(st.CILo), optNum(st.CIHi), num(st.Confidence))
		}
		cfg := make([]string, len(r.Cells[i].Config))
		for j, kv := range r.Cells[i].Config {
			cfg[j] = kv.Key + "=" + kv.Value
		}
		if err := cw.Write(append(append(row, ratioCSV(rec.Ratio)...), strings.Join(cfg, "; "))); err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// otherKeys joins the keys other than db, driver, api and net, sorted.
func otherKeys(keys map[string]string) string {
	var parts []string
	for k, v := range keys {
		if k != "db" && k != "driver" && k != "api" && k != "net" {
			parts = append(parts, k+"="+v)
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, "/")
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func optNum(v *float64) string {
	if v == nil {
		return ""
	}
	return num(*v)
}
