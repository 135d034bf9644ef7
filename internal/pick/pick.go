// Package pick resolves a user's selection — names, globs and -exclusions,
// as in --targets 'pgx*,-pgx-native' — against the entries of a catalogue.
package pick

import (
	"path"
	"slices"
	"strings"
)

// Entry is one thing that can be selected: its ID and the names that
// select it (a workload: its family, name and ID). An Exact entry is
// selected by its exact names only, never by a glob (a target of a
// database the session does not run: naming it is an error worth its own
// message, matching it by a glob is not).
type Entry struct {
	ID    string
	Names []string
	Exact bool
	// Aliases are other names that select the entry when typed whole,
	// never matched by a glob (jdbc-sqlite's xerial).
	Aliases []string
}

// Selection is what a list selected.
type Selection struct {
	// IDs are the selected entries: those of the inclusions in the order
	// they are named (each glob's matches in catalogue order), else the
	// base, less the exclusions; each once.
	IDs []string
	// Included is set when the list names something to include, not only
	// exclusions.
	Included bool
	// Excluded are the IDs the exclusions name.
	Excluded []string
	// Unmatched are the elements (as typed, with their '-') that name no
	// entry, or are malformed globs.
	Unmatched []string
}

// IsGlob reports whether s is a pattern rather than a name.
func IsGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// Includes reports whether list names something to include: an element
// that is not empty and not an exclusion.
func Includes(list []string) bool {
	return slices.ContainsFunc(list, func(s string) bool {
		s = strings.TrimSpace(s)
		return s != "" && !strings.HasPrefix(s, "-")
	})
}

// Select resolves list against entries. Each element is a name, a glob
// (path.Match syntax: * ? [...], where * does not cross a '/') or either
// of those after '-', which excludes what it matches. A list of exclusions
// only starts from base (IDs). Empty elements are ignored.
func Select(list []string, entries []Entry, base []string) Selection {
	var sel Selection
	var inc []string
	for _, el := range list {
		el = strings.TrimSpace(el)
		pat, neg := strings.CutPrefix(el, "-")
		if pat == "" {
			continue
		}
		ids, ok := match(pat, entries)
		switch {
		case !ok:
			sel.Unmatched = append(sel.Unmatched, el)
		case neg:
			sel.Excluded = appendNew(sel.Excluded, ids...)
		default:
			sel.Included = true
			inc = appendNew(inc, ids...)
		}
	}
	if !sel.Included {
		inc = slices.Clone(base)
	}
	for _, id := range inc {
		if !slices.Contains(sel.Excluded, id) {
			sel.IDs = append(sel.IDs, id)
		}
	}
	return sel
}

// match returns the IDs of the entries pat selects, in catalogue order;
// false when it selects none or is a malformed glob.
func match(pat string, entries []Entry) ([]string, bool) {
	glob := IsGlob(pat)
	if _, err := path.Match(pat, ""); glob && err != nil {
		return nil, false
	}
	var ids []string
	for _, e := range entries {
		if glob && e.Exact {
			continue
		}
		if !glob && slices.Contains(e.Aliases, pat) {
			ids = appendNew(ids, e.ID)
			continue
		}
		if slices.ContainsFunc(e.Names, func(n string) bool {
			if glob {
				ok, _ := path.Match(pat, n)
				return ok
			}
			return n == pat
		}) {
			ids = appendNew(ids, e.ID)
		}
	}
	return ids, len(ids) > 0
}

// appendNew appends the elements of add not already in to.
func appendNew(to []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(to, a) {
			to = append(to, a)
		}
	}
	return to
}

// Quote lists elements for a message: "a", "b*".
func Quote(elems []string) string {
	q := make([]string, len(elems))
	for i, e := range elems {
		q[i] = `"` + e + `"`
	}
	return strings.Join(q, ", ")
}
