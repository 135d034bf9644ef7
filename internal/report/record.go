package report

import (
	"math"
	"slices"
)

// Record is one cell with every statistic, as the CSV and JSON outputs
// write it.
type Record struct {
	Name     string `json:"name"`
	Workload string `json:"workload"`
	Family   string `json:"family"`
	// Unit names the operations ("queries").
	Unit   string `json:"unit"`
	DB     string `json:"db"`
	Driver string `json:"driver"`
	API    string `json:"api"`
	Net    string `json:"net,omitempty"`
	// Target is the catalogue's name of the driver and API pair, as typed
	// after --targets ("mysql"); driver/api for one it does not know.
	Target string `json:"target"`
	// Keys is every key=value part of the name, db, driver and api included.
	Keys map[string]string `json:"keys"`
	Runs int               `json:"runs"`
	// Stats is the statistics of each unit measured, by unit (ops/s, ns/op,
	// B/op, allocs/op, p50-ns/op, ...). A unit that was not measured, such
	// as allocs/op on a JDBC runner, is absent.
	Stats map[string]RecordStat `json:"stats"`
	// RunValues is every run's value of every unit, by unit, in the
	// order the runs were written (run i of two cells of one session ran
	// in the same passes).
	RunValues map[string][]float64 `json:"run_values"`
	// Config is the file configuration the cell ran under, passwords
	// redacted.
	Config map[string]string `json:"config"`
	// Ratio is the cell's ratio to its table's baseline with its verdict
	// (the ratio tables'); nil for the baseline itself and a cell of a
	// table without one.
	Ratio *RatioRecord `json:"ratio,omitempty"`
}

// RecordStat is the statistics of one unit of a Record. CILo and CIHi are
// the confidence interval of the median at Confidence; nil when the runs
// are too few for any interval. Every statistic is rounded to one decimal
// place beyond the finest the runs' values carry (a median between two
// runs, a mean), not to float64's noise.
type RecordStat struct {
	N          int      `json:"n"`
	Median     float64  `json:"median"`
	Mean       float64  `json:"mean"`
	Min        float64  `json:"min"`
	Max        float64  `json:"max"`
	StdDev     float64  `json:"stddev"`
	CILo       *float64 `json:"ci_lo"`
	CIHi       *float64 `json:"ci_hi"`
	Confidence float64  `json:"confidence"`
}

// Records returns one Record per cell of the report.
func (r *Report) Records() []Record {
	out := make([]Record, 0, len(r.Cells))
	ratios := r.ratioRecords()
	for _, c := range r.Cells {
		rec := Record{Name: c.Name, Workload: c.Workload, Family: c.Family, Unit: c.Unit,
			DB: c.Keys["db"], Driver: c.Keys["driver"], API: c.Keys["api"], Net: c.Keys["net"],
			Target: columnOf(c.Keys["driver"], c.Keys["api"]).Name,
			Keys:   c.Keys, Runs: c.Runs, Stats: map[string]RecordStat{}, RunValues: c.Values,
			Config: map[string]string{},
			Ratio:  ratios[c.Name]}
		for unit, s := range c.Stats {
			d := s.Decimals
			if d != math.MinInt {
				d++
			}
			rec.Stats[unit] = RecordStat{N: s.N, Median: roundTo(s.Median, d), Mean: roundTo(s.Mean, d),
				Min: roundTo(s.Min, d), Max: roundTo(s.Max, d), StdDev: roundTo(s.StdDev, d),
				CILo: finite(roundTo(s.Lo, d)), CIHi: finite(roundTo(s.Hi, d)), Confidence: roundTo(s.Confidence, 6)}
		}
		for _, kv := range c.Config {
			rec.Config[kv.Key] = kv.Value
		}
		out = append(out, rec)
	}
	return out
}

func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// recordUnits returns the units of recs: the ones sqlbench writes first, in
// their order, then any others sorted.
func recordUnits(recs []Record) []string {
	known := UnitOrder()
	seen := map[string]bool{}
	var others []string
	for _, r := range recs {
		for u := range r.Stats {
			if !seen[u] {
				seen[u] = true
				if !slices.Contains(known, u) {
					others = append(others, u)
				}
			}
		}
	}
	slices.Sort(others)
	var out []string
	for _, u := range known {
		if seen[u] {
			out = append(out, u)
		}
	}
	return append(out, others...)
}
