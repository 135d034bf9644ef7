package studies

import "slices"

// Cause is a known or likely reason why some of a study's comparisons
// differ here from the published ratios: found by measuring (the
// published program run on this machine) or named by an audit, with its
// status in the text.
type Cause struct {
	// Tests are the test names it applies to; empty: every test.
	Tests []string `json:"tests,omitempty"`
	// Pairs are the [numerator, denominator] side names it applies to;
	// empty: every pair.
	Pairs [][2]string `json:"pairs,omitempty"`
	// Text says the cause and where it is measured or argued
	// (docs/reproduce.md).
	Text string `json:"text"`
}

// CauseOf returns the text of the study's first cause that applies to c,
// "" when none does.
func (s *Study) CauseOf(c Comparison) string {
	for _, k := range s.Causes {
		if len(k.Tests) > 0 && !slices.Contains(k.Tests, c.Test.Name) {
			continue
		}
		if len(k.Pairs) > 0 && !slices.Contains(k.Pairs, [2]string{c.Num.Name, c.Den.Name}) {
			continue
		}
		return k.Text
	}
	return ""
}
