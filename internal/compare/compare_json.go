package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/sqlbench/sqlbench/internal/report"
)

// Only returns the comparisons of the units named (short names such as
// p99 allowed), in the order named; an error names a unit neither set of
// results holds.
func (cs *Comparisons) Only(units []string) (*Comparisons, error) {
	out := &Comparisons{OldLabel: cs.OldLabel, NewLabel: cs.NewLabel}
	for _, u := range units {
		u = strings.TrimSpace(u)
		if a, ok := unitAliases()[u]; ok {
			u = a
		}
		c := cs.Unit(u)
		if c == nil {
			var have []string
			for _, c := range cs.Units {
				have = append(have, c.Unit)
			}
			return nil, fmt.Errorf("no unit %q in the results (they hold %s)", u, strings.Join(have, ", "))
		}
		if !slices.Contains(out.Units, c) {
			out.Units = append(out.Units, c)
		}
	}
	if len(out.Units) == 0 {
		return nil, fmt.Errorf("name at least one unit")
	}
	return out, nil
}

// jsonComparisons is the JSON form of Comparisons.
type jsonComparisons struct {
	Old         string             `json:"old"`
	New         string             `json:"new"`
	Alpha       float64            `json:"alpha"`
	Units       []jsonComparison   `json:"units"`
	Regressions []jsonRegression   `json:"regressions"`
	Thresholds  map[string]float64 `json:"thresholds,omitempty"`
}

// jsonComparison is one unit's comparison.
type jsonComparison struct {
	Unit           string       `json:"unit"`
	HigherIsBetter bool         `json:"higher_is_better"`
	Cells          []jsonChange `json:"cells"`
	GeomeanOld     *float64     `json:"geomean_old,omitempty"`
	GeomeanNew     *float64     `json:"geomean_new,omitempty"`
	// ShiftFactor is the median new/old of the cells, when estimated from
	// enough of them (Shift.Usable).
	ShiftFactor *float64 `json:"shift_factor,omitempty"`
	ShiftSpread *float64 `json:"shift_spread,omitempty"`
	OnlyOld     []string `json:"only_old,omitempty"`
	OnlyNew     []string `json:"only_new,omitempty"`
}

// jsonChange is one cell's change: its benchmark name, the target-named
// label the text shows, and the figures of Change.
type jsonChange struct {
	Cell        string   `json:"cell"`
	Label       string   `json:"label"`
	Old         float64  `json:"old"`
	New         float64  `json:"new"`
	OldN        int      `json:"old_n"`
	NewN        int      `json:"new_n"`
	Delta       *float64 `json:"delta"`
	P           *float64 `json:"p"`
	Significant bool     `json:"significant"`
	Worse       bool     `json:"worse"`
}

// jsonRegression is a regression beyond a --fail-over threshold.
type jsonRegression struct {
	Cell      string  `json:"cell"`
	Unit      string  `json:"unit"`
	Delta     float64 `json:"delta"`
	P         float64 `json:"p"`
	Threshold float64 `json:"threshold"`
}

// number is v, or nil (JSON null) when it is not a finite number.
func number(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// JSON writes the comparisons as one JSON object: per unit every cell's
// medians, run counts, change and p-value, the geometric means and the
// shared shift, then the regressions beyond th (resolved; may be nil).
func (cs *Comparisons) JSON(w io.Writer, th Thresholds) error {
	out := jsonComparisons{Old: cs.OldLabel, New: cs.NewLabel, Alpha: Alpha, Units: []jsonComparison{},
		Regressions: []jsonRegression{}, Thresholds: th}
	finite := func(v float64) *float64 {
		if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	for _, c := range cs.Units {
		jc := jsonComparison{Unit: c.Unit, HigherIsBetter: c.HigherIsBetter, Cells: []jsonChange{},
			GeomeanOld: finite(c.GeoOld), GeomeanNew: finite(c.GeoNew), OnlyOld: c.OnlyOld, OnlyNew: c.OnlyNew}
		if c.Shift.Usable() {
			jc.ShiftFactor, jc.ShiftSpread = finite(c.Shift.Factor), &c.Shift.Spread
		}
		for _, ch := range c.Changes {
			jc.Cells = append(jc.Cells, jsonChange{Cell: ch.Name, Label: report.CellLabel(ch.Name),
				Old: ch.Old, New: ch.New,
				OldN: ch.OldN, NewN: ch.NewN, Delta: number(ch.Delta), P: number(ch.P),
				Significant: ch.Significant, Worse: ch.Worse})
		}
		out.Units = append(out.Units, jc)
	}
	for _, r := range cs.Regressions(th) {
		out.Regressions = append(out.Regressions,
			jsonRegression{Cell: r.Name, Unit: r.Unit, Delta: r.Delta, P: r.P, Threshold: r.Threshold})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write the comparison as JSON: %w", err)
	}
	return nil
}
