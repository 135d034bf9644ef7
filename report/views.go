package report

import (
	"math"
	"slices"
	"strconv"
)

// Section is a part of the report with its tables' charts: a family table,
// or a derived view.
type Section struct {
	// ID is unique in the report and safe in HTML and file names.
	ID, Title string
	// Table is the family table of the section, nil for derived views.
	Table  *Table
	Charts []*Chart
}

// Sections returns the report's family sections (a bar chart per workload
// on each database, drivers side by side, and a line chart per sweep) and
// the derived views that have data (database/sql overhead, distance to the
// floor, scaling), in report order.
func (r *Report) Sections() []*Section {
	sweeps := r.Sweeps()
	swept := inSweep(sweeps)
	var out []*Section
	for _, t := range r.Tables() {
		sec := &Section{ID: chartID("t", t.Family, t.DB), Title: t.Family + " · " + t.DB, Table: t}
		var cells []*Cell
		for _, c := range r.Cells {
			if c.Family == t.Family && c.Keys["db"] == t.DB && !swept[c.Name] {
				cells = append(cells, c)
			}
		}
		for _, w := range groupBy(cells, func(c *Cell) string { return c.Workload }) {
			var wc []*Cell
			for _, c := range cells {
				if c.Workload == w {
					wc = append(wc, c)
				}
			}
			sec.Charts = append(sec.Charts, workloadChart(w, t.DB, wc))
			if tc := timeShareChart(w, t.DB, wc); tc != nil {
				sec.Charts = append(sec.Charts, tc)
			}
		}
		for _, s := range sweeps {
			if s.DB == t.DB && s.Lines[0].Points[0].Cell.Family == t.Family {
				sec.Charts = append(sec.Charts, sweepChart(s))
			}
		}
		out = append(out, sec)
	}
	if pairs := r.Overhead(); len(pairs) > 0 {
		sec := &Section{ID: "overhead", Title: "database/sql overhead"}
		for _, db := range groupBy(pairs, func(p OverheadPair) string { return p.DB }) {
			sec.Charts = append(sec.Charts, overheadChart(db, pairs))
		}
		out = append(out, sec)
	}
	if ds := r.Floor(); len(ds) > 0 {
		sec := &Section{ID: "floor", Title: "Distance to the floor"}
		for _, db := range groupBy(ds, func(d FloorDistance) string { return d.Cell.Keys["db"] }) {
			sec.Charts = append(sec.Charts, floorChart(db, ds))
		}
		out = append(out, sec)
	}
	if ss := Scalings(sweeps); len(ss) > 0 {
		sec := &Section{ID: "scaling", Title: "Scaling"}
		for _, s := range ss {
			sec.Charts = append(sec.Charts, scalingChart(s))
		}
		out = append(out, sec)
	}
	return out
}

// bound returns v, or NaN when it is infinite (no interval).
func bound(v float64) float64 {
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

func nans(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// workloadChart is the bar chart of one workload on one database: a group
// per driver/api, a bar per combination of the other keys (net=tcp, ...),
// the median ops/s with its confidence interval as error bars.
func workloadChart(workload, db string, cells []*Cell) *Chart {
	cats := groupBy(cells, func(c *Cell) string { return c.Column() })
	names := groupBy(cells, func(c *Cell) string { return c.Extra() })
	bars := &BarData{Categories: cats}
	for _, name := range names {
		s := BarSeries{Name: name, Values: nans(len(cats)), Lo: nans(len(cats)), Hi: nans(len(cats))}
		for _, c := range cells {
			if c.Extra() == name {
				i := slices.Index(cats, c.Column())
				s.Values[i], s.Lo[i], s.Hi[i] = c.Ops.Center, bound(c.Ops.Lo), bound(c.Ops.Hi)
			}
		}
		bars.Series = append(bars.Series, s)
	}
	return &Chart{ID: chartID(workload, db), Title: workload + " · " + db, XLabel: "driver/api",
		YLabel: cells[0].Unit + "/s (median, CI)", Bars: bars}
}

// sweepChart is the line chart of a sweep: ops/s against the swept key,
// one line per driver/api.
func sweepChart(s *Sweep) *Chart {
	c := &Chart{ID: chartID(s.Workload, s.DB, s.Fixed, "by", s.Key), Title: s.Title(), XLabel: keyLabel(s.Key),
		YLabel: s.Lines[0].Points[0].Cell.Unit + "/s (median, CI)", LogX: s.LogX(), XTicks: s.Xs}
	for _, l := range s.Lines {
		ls := LineSeries{Name: l.Name}
		for _, p := range l.Points {
			ls.X = append(ls.X, p.X)
			ls.Y = append(ls.Y, p.Cell.Ops.Center)
			ls.Lo = append(ls.Lo, bound(p.Cell.Ops.Lo))
			ls.Hi = append(ls.Hi, bound(p.Cell.Ops.Hi))
		}
		c.Lines = append(c.Lines, ls)
	}
	return c
}

// overheadChart is the bar chart of the database/sql overhead on one
// database: a group per workload, a bar per driver.
func overheadChart(db string, pairs []OverheadPair) *Chart {
	var ps []OverheadPair
	for _, p := range pairs {
		if p.DB == db {
			ps = append(ps, p)
		}
	}
	cats := groupBy(ps, func(p OverheadPair) string { return p.Row })
	bars := &BarData{Categories: cats}
	for _, d := range groupBy(ps, func(p OverheadPair) string { return p.Driver }) {
		s := BarSeries{Name: d, Values: nans(len(cats)), Lo: nans(len(cats)), Hi: nans(len(cats))}
		for _, p := range ps {
			if p.Driver == d {
				s.Values[slices.Index(cats, p.Row)] = p.Ratio()
			}
		}
		bars.Series = append(bars.Series, s)
	}
	return &Chart{ID: chartID("overhead", db), Title: "database/sql overhead · " + db, XLabel: "workload",
		YLabel: "native ops/s ÷ database/sql ops/s", Bars: bars}
}

// floorChart is the bar chart of the distance to the floor on one database:
// a group per workload, a bar per driver/api.
func floorChart(db string, ds []FloorDistance) *Chart {
	var sub []FloorDistance
	for _, d := range ds {
		if d.Cell.Keys["db"] == db {
			sub = append(sub, d)
		}
	}
	cats := groupBy(sub, func(d FloorDistance) string { return d.Cell.Row() })
	bars := &BarData{Categories: cats}
	for _, col := range groupBy(sub, func(d FloorDistance) string { return d.Cell.Column() }) {
		s := BarSeries{Name: col, Values: nans(len(cats)), Lo: nans(len(cats)), Hi: nans(len(cats))}
		for _, d := range sub {
			if d.Cell.Column() == col {
				s.Values[slices.Index(cats, d.Cell.Row())] = d.Times
			}
		}
		bars.Series = append(bars.Series, s)
	}
	return &Chart{ID: chartID("floor", db), Title: "Distance to the floor · " + db, XLabel: "workload",
		YLabel: "ns/op ÷ loopback TCP round trip", Bars: bars}
}

// scalingChart is the speed-up of each driver/api over its fewest
// connections, with the ideal linear speed-up dashed.
func scalingChart(s Scaling) *Chart {
	c := &Chart{ID: chartID("scaling", s.Workload, s.DB, s.Fixed), Title: "Scaling · " + s.Title(),
		XLabel: keyLabel(s.Key), YLabel: "speed-up over conns=" + strconv.FormatFloat(s.Xs[0], 'g', -1, 64),
		LogX: s.LogX(), XTicks: s.Xs}
	for _, l := range s.Lines {
		ls := LineSeries{Name: l.Name}
		for i, p := range l.Points {
			ls.X = append(ls.X, p.X)
			ls.Y = append(ls.Y, s.Speedup(l, i))
		}
		c.Lines = append(c.Lines, ls)
	}
	ideal := LineSeries{Name: "ideal (linear)", Dashed: true}
	for _, x := range s.Xs {
		ideal.X = append(ideal.X, x)
		ideal.Y = append(ideal.Y, s.Ideal(x))
	}
	c.Lines = append(c.Lines, ideal)
	return c
}
