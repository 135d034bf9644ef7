package report

import (
	"cmp"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/charts"
	"github.com/sqlbench/sqlbench/targets"
)

// Section is a part of the report with its tables' charts: a family table,
// or a derived view.
type Section struct {
	// ID is unique in the report and safe in HTML and file names.
	ID, Title string
	// Table is the family table of the section, nil for derived views.
	Table  *Table
	Charts []*charts.Chart
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
		sec := &Section{ID: charts.ID("t", t.Family, t.DB), Title: t.Family + " · " + t.DB, Table: t}
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
			if lc := latencyChart(w, t.DB, wc); lc != nil {
				sec.Charts = append(sec.Charts, lc)
			}
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
// per target, a bar per combination of the other keys (net=tcp, ...), the
// Median ops/s with its confidence interval as error bars; bars coloured by
// API, the other keys in shades of it.
func workloadChart(workload, db string, cells []*Cell) *charts.Chart {
	cats := groupBy(cells, func(c *Cell) string { return c.Column() })
	slices.SortStableFunc(cats, compareColumns)
	names := groupBy(cells, func(c *Cell) string { return c.Extra() })
	slices.SortStableFunc(names, compareExtras)
	bars := &charts.BarData{Categories: cats}
	apis := make([]string, len(cats))
	for _, name := range names {
		s := charts.BarSeries{Name: name, Values: nans(len(cats)), Lo: nans(len(cats)), Hi: nans(len(cats))}
		for _, c := range cells {
			if c.Extra() == name {
				i := slices.Index(cats, c.Column())
				s.Values[i], s.Lo[i], s.Hi[i] = c.Ops.Center, bound(c.Ops.Lo), bound(c.Ops.Hi)
				apis[i] = c.Keys["api"]
			}
		}
		bars.Series = append(bars.Series, s)
	}
	return &charts.Chart{ID: charts.ID(workload, db), Title: workload + " · " + db, XLabel: "target",
		YLabel: cells[0].Unit + "/s (median, CI)", Bars: bars, Legend: colourByAPI(apis, bars.Series)}
}

// latencyPercentiles are the units of the latency charts and their names:
// the latencies sqlbench writes (benchfile.Units).
func latencyPercentiles() [][2]string {
	var out [][2]string
	for _, u := range benchfile.Units() {
		if u.Of == benchfile.Nanoseconds && u.Short != "" {
			out = append(out, [2]string{u.Unit, u.Short})
		}
	}
	return out
}

// latencyChart is the latency percentiles of one workload on one database:
// a group per target (and combination of the other keys), a bar for each of
// p50, p99 and p99.9 (medians over the runs), coloured by API in shades. It
// is nil when no cell timed its operations one by one.
func latencyChart(workload, db string, cells []*Cell) *charts.Chart {
	var with []*Cell
	for _, c := range cells {
		if _, ok := c.Stats["p99-ns/op"]; ok {
			with = append(with, c)
		}
	}
	if len(with) == 0 {
		return nil
	}
	extras := len(groupBy(with, func(c *Cell) string { return c.Extra() })) > 1
	cat := func(c *Cell) string {
		if extras {
			return c.Column() + " " + c.Extra()
		}
		return c.Column()
	}
	slices.SortStableFunc(with, func(a, b *Cell) int {
		return cmp.Or(compareColumns(a.Column(), b.Column()), compareExtras(a.Extra(), b.Extra()))
	})
	cats := groupBy(with, cat)
	apis := make([]string, len(cats))
	bars := &charts.BarData{Categories: cats}
	for _, pc := range latencyPercentiles() {
		s := charts.BarSeries{Name: pc[1], Values: nans(len(cats)), Lo: nans(len(cats)), Hi: nans(len(cats))}
		for _, c := range with {
			i := slices.Index(cats, cat(c))
			apis[i] = c.Keys["api"]
			if st, ok := c.Stats[pc[0]]; ok {
				s.Values[i] = st.Median / 1e3
			}
		}
		bars.Series = append(bars.Series, s)
	}
	return &charts.Chart{
		ID:     charts.ID(workload, db, "latency"),
		Title:  workload + " · " + db + " · latency",
		XLabel: "target",
		YLabel: "µs per operation (median of the runs)",
		Bars:   bars,
		Legend: colourByAPI(apis, bars.Series, 1, 0, 2),
	} // p50 light, p99.9 dark
}

// colourByAPI colours each bar by the API of its category (apis, one per
// category), the i-th series in the i-th shade of it, and returns the
// legend: an entry per API, then, when the series are named, one per
// series showing its shade of each API.
// shades, when set, gives the shade of each series (shade's i).
func colourByAPI(apis []string, series []charts.BarSeries, shades ...int) []charts.LegendEntry {
	shadeOf := func(i int) int {
		if i < len(shades) {
			return shades[i]
		}
		return i
	}
	var present []string
	for _, a := range apiOrder() {
		if slices.Contains(apis, a) {
			present = append(present, a)
		}
	}
	for _, a := range apis {
		if a != "" && !slices.Contains(present, a) {
			present = append(present, a)
		}
	}
	for i := range series {
		series[i].Colors = make([]color.Color, len(apis))
		for j, a := range apis {
			series[i].Colors[j] = shade(apiColor(a), shadeOf(i))
		}
	}
	var legend []charts.LegendEntry
	for _, a := range present {
		legend = append(legend, charts.LegendEntry{Name: APILabel(a), Colors: []color.Color{apiColor(a)}})
	}
	if len(series) > 1 || len(series) == 1 && series[0].Name != "" {
		for i, s := range series {
			e := charts.LegendEntry{Name: s.Name}
			for _, a := range present {
				e.Colors = append(e.Colors, shade(apiColor(a), shadeOf(i)))
			}
			legend = append(legend, e)
		}
	}
	return legend
}

// sweepChart is the line chart of a sweep: ops/s against the swept key,
// one line per driver/api.
func sweepChart(s *Sweep) *charts.Chart {
	c := &charts.Chart{ID: charts.ID(s.Workload, s.DB, s.Fixed, "by", s.Key), Title: s.Title(), XLabel: keyLabel(s.Key),
		YLabel: s.Lines[0].Points[0].Cell.Unit + "/s (median, CI)", LogX: s.LogX(), XTicks: s.Xs}
	for _, l := range s.Lines {
		ls := charts.LineSeries{Name: l.Name}
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
// database: a group per workload, a bar per driver, coloured by the API
// that was faster (native above 1, database/sql below), each driver in its
// own shade.
func overheadChart(db string, pairs []OverheadPair) *charts.Chart {
	var ps []OverheadPair
	for _, p := range pairs {
		if p.DB == db {
			ps = append(ps, p)
		}
	}
	cats := groupBy(ps, func(p OverheadPair) string { return p.Row })
	bars := &charts.BarData{Categories: cats}
	legend := []charts.LegendEntry{
		{Name: APILabel(targets.APINative) + " faster (above 1)", Colors: []color.Color{apiColor(targets.APINative)}},
		{Name: APILabel(targets.APISQL) + " faster (below 1)", Colors: []color.Color{apiColor(targets.APISQL)}},
	}
	for i, d := range groupBy(ps, func(p OverheadPair) string { return p.Driver }) {
		s := charts.BarSeries{
			Name:   d,
			Values: nans(len(cats)),
			Lo:     nans(len(cats)),
			Hi:     nans(len(cats)),
			Colors: make([]color.Color, len(cats)),
		}
		for _, p := range ps {
			if p.Driver == d {
				j := slices.Index(cats, p.Row)
				s.Values[j] = p.Ratio()
				faster := targets.APINative
				if p.Ratio() < 1 {
					faster = targets.APISQL
				}
				s.Colors[j] = shade(apiColor(faster), i)
			}
		}
		bars.Series = append(bars.Series, s)
		legend = append(
			legend,
			charts.LegendEntry{
				Name:   d,
				Colors: []color.Color{shade(apiColor(targets.APINative), i), shade(apiColor(targets.APISQL), i)},
			},
		)
	}
	return &charts.Chart{ID: charts.ID("overhead", db), Title: "database/sql overhead · " + db, XLabel: "workload",
		YLabel: "native ops/s ÷ database/sql ops/s", Bars: bars, Legend: legend}
}

// floorChart is the bar chart of the distance to the floor on one database:
// a group per workload, a bar per target coloured by its API (targets of
// one API in shades of it).
func floorChart(db string, ds []FloorDistance) *charts.Chart {
	var sub []FloorDistance
	for _, d := range ds {
		if d.Cell.Keys["db"] == db {
			sub = append(sub, d)
		}
	}
	cats := groupBy(sub, func(d FloorDistance) string { return d.Cell.Row() })
	bars := &charts.BarData{Categories: cats}
	cols := groupBy(sub, func(d FloorDistance) string { return d.Cell.Column() })
	slices.SortStableFunc(cols, compareColumns)
	var legend []charts.LegendEntry
	perAPI := map[string]int{}
	for _, col := range cols {
		s := charts.BarSeries{
			Name:   col,
			Values: nans(len(cats)),
			Lo:     nans(len(cats)),
			Hi:     nans(len(cats)),
			Colors: make([]color.Color, len(cats)),
		}
		api := ""
		for _, d := range sub {
			if d.Cell.Column() == col {
				s.Values[slices.Index(cats, d.Cell.Row())] = d.Times
				api = d.Cell.Keys["api"]
			}
		}
		c := shade(apiColor(api), perAPI[api])
		perAPI[api]++
		for i := range s.Colors {
			s.Colors[i] = c
		}
		legend = append(legend, charts.LegendEntry{Name: col + " (" + APILabel(api) + ")", Colors: []color.Color{c}})
		bars.Series = append(bars.Series, s)
	}
	return &charts.Chart{ID: charts.ID("floor", db), Title: "Distance to the floor · " + db, XLabel: "workload",
		YLabel: "ns/op ÷ loopback TCP round trip", Bars: bars, Legend: legend}
}

// scalingChart is the speed-up of each driver/api over its fewest
// connections, with the ideal linear speed-up dashed.
func scalingChart(s Scaling) *charts.Chart {
	c := &charts.Chart{ID: charts.ID("scaling", s.Workload, s.DB, s.Fixed), Title: "Scaling · " + s.Title(),
		XLabel: keyLabel(s.Key), YLabel: "speed-up over conns=" + strconv.FormatFloat(s.Xs[0], 'g', -1, 64),
		LogX: s.LogX(), XTicks: s.Xs}
	for _, l := range s.Lines {
		ls := charts.LineSeries{Name: l.Name}
		for i, p := range l.Points {
			ls.X = append(ls.X, p.X)
			ls.Y = append(ls.Y, s.Speedup(l, i))
		}
		c.Lines = append(c.Lines, ls)
	}
	ideal := charts.LineSeries{Name: "ideal (linear)", Dashed: true}
	for _, x := range s.Xs {
		ideal.X = append(ideal.X, x)
		ideal.Y = append(ideal.Y, s.Ideal(x))
	}
	c.Lines = append(c.Lines, ideal)
	return c
}
