package pick

import "strings"

// Suggest returns the candidate closest to name, for a "did you mean"
// after a typo: the one the fewest single-letter edits (insert, delete,
// substitute; case ignored) away, if that is at most a third of name's
// length and at least 1, or one that name is a prefix of; "" when none is
// close. Ties go to the first candidate.
func Suggest(name string, candidates []string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" {
		return ""
	}
	limit := max(1, len(name)/3)
	best, bestDist := "", limit+1
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == name {
			continue
		}
		d := distance(name, lc)
		if d > limit && len(name) >= 3 && strings.HasPrefix(lc, name) {
			d = limit
		}
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// DidYouMean returns ` (did you mean "x"?)` for the candidate Suggest
// finds, or else ` (valid: ...)` listing every candidate.
func DidYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" {
		return ` (did you mean "` + s + `"?)`
	}
	return " (valid: " + strings.Join(candidates, ", ") + ")"
}
