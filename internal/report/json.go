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
// read, the confidence level asked for, and one Record per cell, each with
// its runs' raw values beside the statistics.
type JSONDocument struct {
	Schema     int      `json:"schema"`
	Sources    []string `json:"sources,omitempty"`
	Confidence float64  `json:"confidence"`
	Cells      []Record `json:"cells"`
}

// JSON writes the report as a JSONDocument.
func JSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	doc := JSONDocument{Schema: JSONSchema, Sources: r.Sources, Confidence: Confidence, Cells: r.Records()}
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
