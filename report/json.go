package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// JSON writes the report's records as a JSON array, one object per cell
// (see Record).
func JSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	if err := enc.Encode(r.Records()); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
