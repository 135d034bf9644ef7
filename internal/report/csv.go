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

// CSV writes the report's records tidy: one row per cell and unit measured
// (a unit the cell did not measure has no row). Columns: name, workload,
// family, op_unit (what an operation is: "queries"), db, driver, api, net,
// target (the catalogue's name), the other keys (k=v joined by '/'), runs,
// config (the number of the configuration the cell ran under, whose
// key=value lines ConfigCSV writes once), unit, then the statistics of
// csvStatColumns, then the cell's ops/s ratio to its table's baseline with
// its verdict (csvRatioColumns; blank without one), on each of its rows.
// Numbers are written with the precision of the runs (RecordStat).
func CSV(w io.Writer, r *Report) error {
	recs := r.Records()
	units := recordUnits(recs)
	ids, _ := configIDs(r)
	cw := csv.NewWriter(w)
	header := append([]string{"name", "workload", "family", "op_unit", "db", "driver", "api", "net", "target", "keys",
		"runs", "config", "unit"}, csvStatColumns()...)
	header = append(header, csvRatioColumns()...)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	for i, rec := range recs {
		cell := []string{rec.Name, rec.Workload, rec.Family, rec.Unit, rec.DB, rec.Driver, rec.API, rec.Net, rec.Target,
			otherKeys(rec.Keys), strconv.Itoa(rec.Runs), strconv.Itoa(ids[i])}
		for _, u := range units {
			st, ok := rec.Stats[u]
			if !ok {
				continue
			}
			row := append(
				slices.Clone(cell),
				u,
				strconv.Itoa(st.N),
				num(st.Median),
				num(st.Mean),
				num(st.Min),
				num(st.Max),
				num(st.StdDev),
				optNum(st.CILo),
				optNum(st.CIHi),
				num(st.Confidence),
			)
			if err := cw.Write(append(row, ratioCSV(rec.Ratio)...)); err != nil {
				return fmt.Errorf("write csv: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// ConfigCSV writes, once each, the configurations CSV's config column
// numbers: rows of config (the number), key and value, in the order the
// file configuration lists them (passwords masked as in every report).
func ConfigCSV(w io.Writer, r *Report) error {
	_, configs := configIDs(r)
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"config", "key", "value"}); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	for i, cfg := range configs {
		for _, kv := range cfg {
			if err := cw.Write([]string{strconv.Itoa(i + 1), kv.Key, kv.Value}); err != nil {
				return fmt.Errorf("write csv: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// configIDs numbers the distinct configurations of the report's cells
// from 1, in order of first appearance: each cell's number (ids, in the
// order of r.Cells) and the configurations.
func configIDs(r *Report) (ids []int, configs [][]Config) {
	for _, c := range r.Cells {
		i := slices.IndexFunc(configs, func(cfg []Config) bool { return slices.Equal(cfg, c.Config) })
		if i < 0 {
			configs, i = append(configs, c.Config), len(configs)
		}
		ids = append(ids, i+1)
	}
	return ids, configs
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
