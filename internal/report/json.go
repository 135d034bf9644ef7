package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// JSONSchema is the version of the JSON document JSON writes; it changes
// when a field changes meaning or goes away.
const JSONSchema = 2

// JSONDocument is what JSON writes: the schema version, the results files
// read, the confidence level asked for, the resolution of the ratio
// comparisons and how many they decided, and one Record per cell, each
// with its runs' raw values beside the statistics and its ratio to the
// baseline with the verdict.
type JSONDocument struct {
	Schema     int      `json:"schema"`
	Sources    []string `json:"sources,omitempty"`
	Confidence float64  `json:"confidence"`
	// Resolution is the ratio comparisons' (Report.Resolution), Decided
	// the count of their verdicts by kind (nil without a ratio table).
	Resolution float64        `json:"resolution"`
	Decided    *JSONDecisions `json:"decided,omitempty"`
	Cells      []Record       `json:"cells"`
}

// JSONDecisions is Decisions as the JSON document writes it.
type JSONDecisions struct {
	Faster     int `json:"faster"`
	Slower     int `json:"slower"`
	Equivalent int `json:"equivalent"`
	Undecided  int `json:"undecided"`
}

// JSON writes the report as a JSONDocument.
func JSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	doc := JSONDocument{Schema: JSONSchema, Sources: r.Sources, Confidence: Confidence, Resolution: r.resolution(),
		Cells: r.Records()}
	if d, ok := r.RatioDecisions(); ok {
		doc.Decided = &JSONDecisions{
			Faster:     d.Faster,
			Slower:     d.Slower,
			Equivalent: d.Equivalent,
			Undecided:  d.Undecided,
		}
	}
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
