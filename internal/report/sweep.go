package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Sweep is one sweep: a workload on a database whose cells vary one integer
// key (conns, size, n) while every other key is fixed. Each line is one
// driver/api.
type Sweep struct {
	Workload, DB string
	// Key is the swept key; Fixed the other keys beyond db, driver and api
	// ("net=tcp"), "" when there are none.
	Key, Fixed string
	// Xs is every value of Key in the sweep, ascending.
	Xs    []float64
	Lines []SweepLine
}

// SweepLine is one driver/api's cells along a sweep, ascending in X.
type SweepLine struct {
	Name   string
	Points []SweepPoint
}

// SweepPoint is one cell of a sweep line.
type SweepPoint struct {
	X    float64
	Cell *Cell
}

// Title names the sweep: "Workload · db · net=tcp".
func (s *Sweep) Title() string {
	t := s.Workload + " · " + s.DB
	if s.Fixed != "" {
		t += " · " + s.Fixed
	}
	return t
}

// LogX reports whether the sweep is best drawn on a log scale: sizes
// always, other keys when their values span 16 times or more.
func (s *Sweep) LogX() bool {
	if len(s.Xs) < 2 || s.Xs[0] <= 0 {
		return false
	}
	return s.Key == "size" || s.Xs[len(s.Xs)-1]/s.Xs[0] >= 16
}

// Sweeps finds the sweeps among the report's cells: for each workload and
// database, a key whose values are all integers and that takes at least
// two values while the other keys stay the same. Lines with one point are
// left out.
func (r *Report) Sweeps() []*Sweep {
	type wdb struct{ workload, db string }
	var order []wdb
	groups := map[wdb][]*Cell{}
	for _, c := range r.Cells {
		k := wdb{c.Workload, c.Keys["db"]}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	var out []*Sweep
	for _, k := range order {
		cells := groups[k]
		for _, key := range integerKeys(cells) {
			out = append(out, sweepsOver(k.workload, k.db, key, cells)...)
		}
	}
	return out
}

// integerKeys returns the keys beyond db, driver and api that every cell
// has with an integer value, in name order.
func integerKeys(cells []*Cell) []string {
	var keys []string
	for key, v := range cells[0].Keys {
		if key == "db" || key == "driver" || key == "api" {
			continue
		}
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			continue
		}
		all := true
		for _, c := range cells[1:] {
			if _, err := strconv.ParseInt(c.Keys[key], 10, 64); err != nil {
				all = false
				break
			}
		}
		if all {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// sweepsOver groups the cells of one workload and database by their other
// keys and driver/api, and returns the groups in which key varies.
func sweepsOver(workload, db, key string, cells []*Cell) []*Sweep {
	var out []*Sweep
	byFixed := map[string]*Sweep{}
	for _, c := range cells {
		fixed := extraLabel(c.Name, key)
		s, ok := byFixed[fixed]
		if !ok {
			s = &Sweep{Workload: workload, DB: db, Key: key, Fixed: fixed}
			byFixed[fixed] = s
			out = append(out, s)
		}
		x, _ := strconv.ParseFloat(c.Keys[key], 64)
		i := slices.IndexFunc(s.Lines, func(l SweepLine) bool { return l.Name == c.Column() })
		if i < 0 {
			s.Lines = append(s.Lines, SweepLine{Name: c.Column()})
			i = len(s.Lines) - 1
		}
		s.Lines[i].Points = append(s.Lines[i].Points, SweepPoint{X: x, Cell: c})
		s.Xs = appendNew(s.Xs, x)
	}
	return slices.DeleteFunc(out, func(s *Sweep) bool {
		s.Lines = slices.DeleteFunc(s.Lines, func(l SweepLine) bool { return len(l.Points) < 2 })
		slices.SortStableFunc(s.Lines, func(a, b SweepLine) int { return compareColumns(a.Name, b.Name) })
		for i := range s.Lines {
			slices.SortFunc(s.Lines[i].Points, func(a, b SweepPoint) int { return cmp.Compare(a.X, b.X) })
		}
		slices.Sort(s.Xs)
		return len(s.Lines) == 0
	})
}

// inSweep returns the names of the cells that some sweep draws.
func inSweep(sweeps []*Sweep) map[string]bool {
	m := map[string]bool{}
	for _, s := range sweeps {
		for _, l := range s.Lines {
			for _, p := range l.Points {
				m[p.Cell.Name] = true
			}
		}
	}
	return m
}

// keyLabel names a sweep key for an axis.
func keyLabel(key string) string {
	switch key {
	case "conns":
		return "concurrent connections"
	case "size":
		return "size (bytes)"
	case "n":
		return "rows (n)"
	}
	return strings.ReplaceAll(key, "_", " ")
}
