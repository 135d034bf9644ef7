package report

// RatioRecord is a cell's ratio to its table's baseline with its verdict,
// as the CSV and JSON outputs write it (Record.Ratio).
type RatioRecord struct {
	// Baseline is the target the ratio is set against.
	Baseline string `json:"baseline"`
	// Ratio is the cell's ops/s over the baseline's (Ratio.Ratio), Lo and
	// Hi its interval at Confidence: nil when the runs are too few for one.
	Ratio      float64  `json:"ratio"`
	Lo         *float64 `json:"lo"`
	Hi         *float64 `json:"hi"`
	Confidence float64  `json:"confidence"`
	// How is RatioPaired or RatioUnpaired, N the pairs or runs behind it.
	How string `json:"how"`
	N   int    `json:"n"`
	// Verdict is Faster, Slower, Equivalent or Undecided at Resolution;
	// SettleRuns, for an undecided one, the runs per cell estimated to
	// decide it (-1: more than MaxSettleRuns; 0: no estimate).
	Verdict    string  `json:"verdict"`
	Resolution float64 `json:"resolution"`
	SettleRuns int     `json:"settle_runs,omitempty"`
}

// ratioRecords returns the ratio record of every cell that has a ratio to
// its table's baseline (the report's ratio tables), by cell name.
func (r *Report) ratioRecords() map[string]*RatioRecord {
	p := r.resolution()
	out := map[string]*RatioRecord{}
	for _, t := range r.Tables() {
		base, ok := t.BaselineOf(r.Baseline)
		if !ok {
			continue
		}
		for _, q := range t.Ratios(base) {
			c := t.Cell(q.Row, q.Col)
			out[c.Name] = &RatioRecord{Baseline: q.Baseline, Ratio: roundTo(q.Ratio, 6), Lo: finite(roundTo(q.Lo, 6)),
				Hi: finite(roundTo(q.Hi, 6)), Confidence: roundTo(q.Confidence, 6), How: q.How, N: q.N,
				Verdict: q.Kind(p), Resolution: p, SettleRuns: q.Settle(p)}
		}
	}
	return out
}

// ratioCSV is a ratio record's CSV columns (csvRatioColumns), blank for a
// cell without one.
func ratioCSV(rr *RatioRecord) []string {
	if rr == nil {
		return make([]string, len(csvRatioColumns()))
	}
	settle := ""
	if rr.Verdict == Undecided && rr.SettleRuns != 0 {
		settle = num(float64(rr.SettleRuns))
	}
	return []string{rr.Baseline, num(rr.Ratio), optNum(rr.Lo), optNum(rr.Hi), rr.Verdict, num(rr.Resolution), settle}
}

// csvRatioColumns names the ratio columns of the CSV, in order.
func csvRatioColumns() []string {
	return []string{"baseline", "ratio", "ratio_lo", "ratio_hi", "verdict", "resolution", "settle_runs"}
}
