package benchfile

import (
	"fmt"
	"strings"
	"testing"
)

// sessionFile returns a results file of session id (none when "") holding
// runs first..last of two cells, run i at 1000+i+offset ops/s.
func sessionFile(t *testing.T, id string, first, last int, offset float64) Named {
	t.Helper()
	var b strings.Builder
	b.WriteString("Unit ops/s better=higher\n")
	if id != "" {
		fmt.Fprintf(&b, "# session-id: %s\n", id)
	}
	b.WriteString("count: 6\n")
	for i := first; i <= last; i++ {
		for _, d := range []string{"a", "b"} {
			fmt.Fprintf(&b, "BenchmarkR/db=sqlite/driver=%s/api=sql 100 %g ops/s\n", d, 1000+float64(i)+offset)
		}
	}
	set, err := Read(strings.NewReader(b.String()), id)
	if err != nil {
		t.Fatal(err)
	}
	return Named{Results: set.Results}
}

func named(n Named, name string) Named { n.Name = name; return n }

func TestMergeCountsEveryRunOnce(t *testing.T) {
	r1 := named(sessionFile(t, "k3x9qa", 1, 6, 0), "r1.txt")
	early := named(sessionFile(t, "k3x9qa", 1, 3, 0), "early.txt")
	x, y, y5 := named(sessionFile(t, "", 1, 6, 0), "x.txt"), named(sessionFile(t, "", 1, 6, 0), "y.txt"),
		named(sessionFile(t, "", 1, 6, 5), "y.txt")
	for _, c := range []struct {
		what  string
		files []Named
		runs  int
		notes []string
	}{
		{"the same file twice", []Named{r1, r1}, 12,
			[]string{"r1.txt repeats all 12 runs of session k3x9qa already read from r1.txt; counted once"}},
		{"a copy under another name", []Named{r1, named(sessionFile(t, "k3x9qa", 1, 6, 0), "copy.txt")}, 12,
			[]string{"copy.txt repeats all 12 runs of session k3x9qa already read from r1.txt; counted once"}},
		{"a copy taken while the session ran", []Named{early, r1}, 12,
			[]string{"r1.txt repeats 6 of its 12 runs of session k3x9qa already read from early.txt; counted once"}},
		{"a file without a session id twice", []Named{x, y}, 12,
			[]string{
				"y.txt repeats all 12 runs of results without a session id already read from x.txt; counted once"}},
		{"two sessions", []Named{r1, named(sessionFile(t, "p2m7zz", 1, 6, 0), "r2.txt")}, 24, nil},
		{"two files without a session id, other values", []Named{x, y5}, 24, nil},
		{"three files", []Named{named(sessionFile(t, "k3x9qa", 1, 2, 0), "a.txt"),
			named(sessionFile(t, "k3x9qa", 1, 4, 0), "b.txt"), r1}, 12,
			[]string{"b.txt repeats 4 of its 8 runs of session k3x9qa already read from a.txt; counted once",
				"r1.txt repeats 4 of its 12 runs of session k3x9qa already read from a.txt; counted once",
				"r1.txt repeats 4 of its 12 runs of session k3x9qa already read from b.txt; counted once"}},
	} {
		rs, repeats := Merge(c.files)
		if len(rs) != c.runs {
			t.Errorf("%s: %d results merged, want %d", c.what, len(rs), c.runs)
		}
		var got []string
		for _, r := range repeats {
			got = append(got, r.String())
		}
		if strings.Join(got, "\n") != strings.Join(c.notes, "\n") {
			t.Errorf("%s: notes\n%s\nwant\n%s", c.what, strings.Join(got, "\n"), strings.Join(c.notes, "\n"))
		}
		// Every run of a cell is there once, in run order.
		seen := map[string][]float64{}
		for _, r := range rs {
			v, _ := r.Value("ops/s")
			seen[string(r.Name)] = append(seen[string(r.Name)], v)
		}
		for cell, vs := range seen {
			for i := 1; i < len(vs) && c.runs == 12; i++ {
				if vs[i] <= vs[i-1] {
					t.Errorf("%s: %s runs out of order or repeated: %v", c.what, cell, vs)
					break
				}
			}
		}
	}
}

func TestSameSession(t *testing.T) {
	r1 := sessionFile(t, "k3x9qa", 1, 6, 0).Results
	if o := SameSession(r1, r1); o.Session != "session k3x9qa" || o.Shared != 12 || o.A != 12 || o.B != 12 {
		t.Errorf("a file with itself: %+v", o)
	}
	early := sessionFile(t, "k3x9qa", 1, 3, 0).Results
	if o := SameSession(early, r1); o.Session != "session k3x9qa" || o.Shared != 6 || o.B != 12 {
		t.Errorf("a partial copy: %+v", o)
	}
	if o := SameSession(r1, sessionFile(t, "p2m7zz", 1, 6, 0).Results); o.Session != "" {
		t.Errorf("two sessions: %+v", o)
	}
	if o := SameSession(sessionFile(t, "", 1, 6, 0).Results, sessionFile(t, "", 1, 6, 1).Results); o.Session != "" {
		t.Errorf("two files without session ids, other values: %+v", o)
	}
}
