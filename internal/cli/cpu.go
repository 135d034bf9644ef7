package cli

import (
	"slices"
	"strconv"
	"strings"
)

// parseCPUs reads a --cpu list ("2,4,8", as go test -cpu takes it); ""
// gives nil. Each value must be from 1 to 1024 and appear once.
func parseCPUs(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 || n > 1024 {
			return nil, usagef("--cpu: want GOMAXPROCS values from 1 to 1024, comma-separated (e.g. 2,4,8), got %q", part)
		}
		if slices.Contains(out, n) {
			return nil, usagef("--cpu: %d is given twice", n)
		}
		out = append(out, n)
	}
	return out, nil
}
