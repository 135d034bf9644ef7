package textlayout

import (
	"math"
	"strconv"
	"strings"
)

// FormatValue formats a rate or a time for a table: integers with thousands
// separators from 100 up, three significant digits below.
func FormatValue(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	if math.Abs(v) >= 100 {
		return Thousands(v)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// Thousands formats v rounded to an integer with ',' between thousands.
func Thousands(v float64) string {
	s := strconv.FormatInt(int64(math.Round(v)), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
