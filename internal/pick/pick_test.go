package pick

import (
	"slices"
	"testing"
)

func TestSelect(t *testing.T) {
	entries := []Entry{
		{ID: "a/x", Names: []string{"fam1", "a", "a/x"}},
		{ID: "a/y", Names: []string{"fam1", "a", "a/y"}},
		{ID: "ab", Names: []string{"fam2", "ab", "ab"}},
		{ID: "b", Names: []string{"fam2", "b", "b"}},
		{ID: "other", Names: []string{"other"}, Exact: true, Aliases: []string{"alias"}},
	}
	base := []string{"b"}
	for _, c := range []struct {
		list      []string
		ids       []string
		included  bool
		unmatched []string
	}{
		{nil, []string{"b"}, false, nil},
		{[]string{"ab", "a"}, []string{"ab", "a/x", "a/y"}, true, nil},
		{[]string{"a*"}, []string{"a/x", "a/y", "ab"}, true, nil},
		{[]string{"a*", "-a/y"}, []string{"a/x", "ab"}, true, nil},
		{[]string{"-a/y", "a*"}, []string{"a/x", "ab"}, true, nil}, // exclusions apply last
		{[]string{"a/*"}, []string{"a/x", "a/y"}, true, nil},
		{[]string{"fam2", "-b"}, []string{"ab"}, true, nil},
		{[]string{"-b"}, nil, false, nil},
		{[]string{" -ab ", ""}, []string{"b"}, false, nil},
		{[]string{"o*"}, []string{"b"}, false, []string{"o*"}}, // an Exact entry is never matched by a glob
		{[]string{"other"}, []string{"other"}, true, nil},
		{[]string{"alias"}, []string{"other"}, true, nil},
		{[]string{"ali*"}, []string{"b"}, false, []string{"ali*"}}, // an alias is never matched by a glob
		{[]string{"nope", "z*", "-q", "["}, []string{"b"}, false, []string{"nope", "z*", "-q", "["}},
	} {
		sel := Select(c.list, entries, base)
		if !slices.Equal(sel.IDs, c.ids) || sel.Included != c.included || !slices.Equal(sel.Unmatched, c.unmatched) {
			t.Errorf("Select(%q) = %v included %v unmatched %v; want %v %v %v", c.list, sel.IDs, sel.Included,
				sel.Unmatched, c.ids, c.included, c.unmatched)
		}
	}
}

func TestIncludes(t *testing.T) {
	if Includes([]string{"-a", " -b", ""}) || !Includes([]string{"-a", "b"}) || Includes(nil) {
		t.Error("Includes is wrong")
	}
}
