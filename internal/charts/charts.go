// Package charts draws the charts of sqlbench's reports with gonum.org/v1/plot: a Chart is described by its data
// (grouped or stacked bars with error bars, or lines) and drawn as SVG or PNG.
package charts

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// Chart is one chart of a report, described by its data; SVG and PNG draw
// it with gonum.org/v1/plot. It is either a grouped bar chart (Bars) or a
// line chart (Lines).
type Chart struct {
	// ID is unique in a report and safe in file names.
	ID                    string
	Title, XLabel, YLabel string
	Bars                  *BarData
	Lines                 []LineSeries
	// Legend, when set, is the legend of a bar chart, in place of the
	// series names.
	Legend []LegendEntry
	// LogX draws a line chart's x axis on a log scale; XTicks are the x
	// values to label.
	LogX   bool
	XTicks []float64
}

// BarData is a grouped bar chart: one group per category, one bar per
// series in each group.
type BarData struct {
	Categories []string
	Series     []BarSeries
	// Stacked stacks the series in one bar per category (the first at the
	// bottom) instead of setting them side by side.
	Stacked bool
}

// BarSeries is one series of a bar chart; Values, Lo and Hi have one entry
// per category, NaN where the series has no value. Lo and Hi bound the
// error bar (NaN: none). Colors, when set, has one colour per category.
type BarSeries struct {
	Name           string
	Values, Lo, Hi []float64
	Colors         []color.Color
	// Stack, in a stacked chart, is the bar of the category this series
	// is stacked in: series of one Stack go on top of each other, the
	// stacks side by side (0 first).
	Stack int
}

// LineSeries is one line of a line chart; Lo and Hi bound each point's
// error bar (NaN: none). A dashed line is a reference, such as the ideal
// linear scaling.
type LineSeries struct {
	Name         string
	X, Y, Lo, Hi []float64
	Dashed       bool
}

// Points returns the number of data values the chart draws.
func (c *Chart) Points() int {
	n := 0
	if c.Bars != nil {
		for _, s := range c.Bars.Series {
			for _, v := range s.Values {
				if !math.IsNaN(v) {
					n++
				}
			}
		}
	}
	for _, l := range c.Lines {
		n += len(l.X)
	}
	return n
}

// size returns the chart's size: wider for many bars or a long legend.
func (c *Chart) size() (w, h vg.Length) {
	w, h = 15*vg.Centimeter, 9*vg.Centimeter
	if c.Bars != nil {
		bars := len(c.Bars.Categories) * len(c.Bars.Series)
		w = max(w, vg.Length(bars)*14+4*vg.Centimeter)
		w = min(w, 40*vg.Centimeter)
		maxLabel := 0
		for _, cat := range c.Bars.Categories {
			maxLabel = max(maxLabel, len(cat))
		}
		if rotateLabels(c.Bars.Categories) {
			h += vg.Length(min(maxLabel, 40)) * 5 // room for slanted labels
		}
	}
	return w, h
}

// palette returns the series colours: a colour-blind-safe set (Okabe-Ito)
// and darker variants.
func palette() []color.Color {
	hex := []uint32{0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, 0xF0E442, 0x000000,
		0x004C7A, 0x9E6C00, 0x006B4F, 0x8C4F73}
	out := make([]color.Color, len(hex))
	for i, h := range hex {
		out[i] = color.RGBA{uint8(h >> 16), uint8(h >> 8), uint8(h), 255}
	}
	return out
}

func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// newPlot returns a plot with the chart's title and labels, in a sans-serif
// face.
func (c *Chart) newPlot() *plot.Plot {
	p := plot.New()
	p.Title.Text = c.Title
	p.Title.TextStyle.Font = sans(12)
	p.X.Label.Text, p.Y.Label.Text = c.XLabel, c.YLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(10)
		a.Tick.Label.Font = sans(9)
	}
	p.Legend.TextStyle.Font = sans(9)
	p.Legend.Top = true
	p.Y.Tick.Marker = thousandsTicks{}
	grid := plotter.NewGrid()
	if c.Bars != nil {
		grid.Vertical.Color = nil
	}
	p.Add(grid)
	return p
}

// thousandsTicks are the default ticks labelled with thousands separators.
type thousandsTicks struct{}

func (thousandsTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = textlayout.FormatValue(ts[i].Value)
		}
	}
	return ts
}

// draw draws the chart on canvas cv.
func (c *Chart) draw(cv vg.CanvasSizer) error {
	p := c.newPlot()
	dc := draw.New(cv)
	switch {
	case c.Bars != nil:
		if err := c.addBars(p); err != nil {
			return err
		}
	default:
		if err := c.addLines(p); err != nil {
			return err
		}
	}
	p.Draw(dc)
	return nil
}

// addBars adds the bar series side by side in each category: category i
// spans i-0.4 to i+0.4 in data coordinates, each series a slice of that.
// A bar takes its series' colour for its category (BarSeries.Colors), else
// the palette's colour of its series; the legend is the chart's Legend, else
// the series names.
func (c *Chart) addBars(p *plot.Plot) error {
	b := c.Bars
	k := len(b.Series)
	n := len(b.Categories)
	groupWidth := 0.8
	step := groupWidth / float64(k)
	stacks := 1
	if b.Stacked { // a bar per stack and category, its series on top of each other
		for _, s := range b.Series {
			stacks = max(stacks, s.Stack+1)
		}
		step = groupWidth / float64(stacks)
	}
	base := make([][]float64, stacks) // a stacked bar's height so far, per stack and category
	for i := range base {
		base[i] = make([]float64, n)
	}
	cols := palette()
	bars := &colouredBars{width: step * 0.92}
	var whiskers []plot.Plotter
	for i, s := range b.Series {
		var errs errorPoints
		for j, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			if b.Stacked {
				x := float64(j) - groupWidth/2 + step*(float64(s.Stack)+0.5)
				bars.bars = append(bars.bars, colouredBar{x: x, base: base[s.Stack][j], y: v, color: cols[i%len(cols)]})
				base[s.Stack][j] += v
				continue // no error bars on a stacked part
			}
			x := float64(j) - groupWidth/2 + step*(float64(i)+0.5)
			col := cols[i%len(cols)]
			if s.Colors != nil {
				col = s.Colors[j]
			}
			bars.bars = append(bars.bars, colouredBar{x: x, y: v, color: col})
			if !math.IsNaN(s.Lo[j]) && !math.IsNaN(s.Hi[j]) {
				errs = append(errs, errorPoint{x: x, y: v, lo: v - s.Lo[j], hi: s.Hi[j] - v})
			}
		}
		if c.Legend == nil && (k > 1 || s.Name != "") {
			p.Legend.Add(s.Name, swatch{cols[i%len(cols)]})
		}
		if len(errs) > 0 {
			eb, err := plotter.NewYErrorBars(errs)
			if err != nil {
				return fmt.Errorf("chart %s: %w", c.ID, err)
			}
			eb.LineStyle.Width = vg.Points(1)
			eb.CapWidth = vg.Points(4)
			whiskers = append(whiskers, eb)
		}
	}
	p.Add(bars)
	p.Add(whiskers...) // over the bars
	for _, e := range c.Legend {
		p.Legend.Add(e.Name, swatch(e.Colors))
	}
	p.NominalX(b.Categories...)
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.Y.Min = 0
	if rotateLabels(b.Categories) {
		p.X.Tick.Label.Rotation = math.Pi / 5
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	entries := len(c.Legend)
	if c.Legend == nil && (k > 1 || b.Series[0].Name != "") {
		entries = k
	}
	headroom(p, entries, entries > 0)
	return nil
}

// LegendEntry is one entry of a chart's legend: a name and the colours of
// the bars it stands for (several: a swatch of stripes).
type LegendEntry struct {
	Name   string
	Colors []color.Color
}

// colouredBar is one bar: its centre in data coordinates, its height, its
// base and its colour.
type colouredBar struct {
	x, y  float64
	base  float64 // where the bar starts: 0, or the bars below it in a stack
	color color.Color
}

// colouredBars draws bars of any colour each, width wide in data
// coordinates (plot.Plotter and plot.DataRanger).
type colouredBars struct {
	bars  []colouredBar
	width float64
}

// Plot draws the bars.
func (cb *colouredBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for _, b := range cb.bars {
		x0, x1 := trX(b.x-cb.width/2), trX(b.x+cb.width/2)
		y0, y1 := trY(b.base), trY(b.base+b.y)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
		c.FillPolygon(b.color, c.ClipPolygonXY(pts))
	}
}

// DataRange returns the bars' extent.
func (cb *colouredBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, b := range cb.bars {
		xmin, xmax = min(xmin, b.x-cb.width/2), max(xmax, b.x+cb.width/2)
		ymin, ymax = min(ymin, b.base+b.y), max(ymax, b.base+b.y)
	}
	if len(cb.bars) == 0 {
		xmin, xmax = 0, 1
	}
	return xmin, xmax, ymin, ymax
}

// swatch is a legend thumbnail: one stripe per colour.
type swatch []color.Color

// Thumbnail draws the stripes.
func (s swatch) Thumbnail(c *draw.Canvas) {
	w := (c.Max.X - c.Min.X) / vg.Length(len(s))
	for i, col := range s {
		x0 := c.Min.X + w*vg.Length(i)
		pts := []vg.Point{{X: x0, Y: c.Min.Y}, {X: x0, Y: c.Max.Y}, {X: x0 + w, Y: c.Max.Y}, {X: x0 + w, Y: c.Min.Y}}
		c.FillPolygon(col, c.ClipPolygonY(pts))
	}
}

// headroom raises the top of the y axis to keep the legend, top right,
// clear of the data.
func headroom(p *plot.Plot, entries int, legend bool) {
	if legend && entries > 0 {
		p.Y.Max += (p.Y.Max - p.Y.Min) * (0.04 + 0.07*float64(entries))
	}
}

// rotateLabels reports whether category labels would overlap unless
// slanted.
func rotateLabels(labels []string) bool { return maxLabel(labels)*len(labels) > 64 }

func maxLabel(labels []string) int {
	m := 0
	for _, l := range labels {
		m = max(m, len(l))
	}
	return m
}

// addLines adds the line series with their points and error bars.
func (c *Chart) addLines(p *plot.Plot) error {
	cols := palette()
	for i, l := range c.Lines {
		xys := make(plotter.XYs, len(l.X))
		var errs errorPoints
		for j := range l.X {
			xys[j] = plotter.XY{X: l.X[j], Y: l.Y[j]}
			if j < len(l.Lo) && !math.IsNaN(l.Lo[j]) && !math.IsNaN(l.Hi[j]) {
				errs = append(errs, errorPoint{x: l.X[j], y: l.Y[j], lo: l.Y[j] - l.Lo[j], hi: l.Hi[j] - l.Y[j]})
			}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("chart %s: %w", c.ID, err)
		}
		col := cols[i%len(cols)]
		line.Color = col
		line.Width = vg.Points(1.5)
		if l.Dashed {
			line.Color = color.Gray{Y: 110}
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			p.Add(line)
			p.Legend.Add(l.Name, line)
			continue
		}
		pts, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("chart %s: %w", c.ID, err)
		}
		pts.Color = col
		pts.Shape = draw.CircleGlyph{}
		pts.Radius = vg.Points(2.5)
		p.Add(line, pts)
		p.Legend.Add(l.Name, line, pts)
		if len(errs) > 0 {
			eb, err := plotter.NewYErrorBars(errs)
			if err != nil {
				return fmt.Errorf("chart %s: %w", c.ID, err)
			}
			eb.Color = col
			eb.CapWidth = vg.Points(4)
			p.Add(eb)
		}
	}
	p.Y.Min = 0
	headroom(p, len(c.Lines), true)
	if c.LogX {
		p.X.Scale = plot.LogScale{}
	}
	if len(c.XTicks) > 0 {
		var ts plot.ConstantTicks
		for _, x := range c.XTicks {
			ts = append(ts, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)})
		}
		p.X.Tick.Marker = ts
		lo, hi := c.XTicks[0], c.XTicks[len(c.XTicks)-1]
		if c.LogX {
			p.X.Min, p.X.Max = lo/1.15, hi*1.15
		} else {
			pad := (hi - lo) * 0.04
			p.X.Min, p.X.Max = lo-pad, hi+pad
		}
	}
	return nil
}

// errorPoint is a point with its error bar as distances below and above.
type errorPoint struct{ x, y, lo, hi float64 }

// errorPoints implements plotter.XYer and plotter.YErrorer.
type errorPoints []errorPoint

func (e errorPoints) Len() int                        { return len(e) }
func (e errorPoints) XY(i int) (float64, float64)     { return e[i].x, e[i].y }
func (e errorPoints) YError(i int) (float64, float64) { return e[i].lo, e[i].hi }

// xmlDecl matches the XML declaration and comment vgsvg writes first, which
// do not belong inside an HTML document.
var xmlDecl = regexp.MustCompile(`^<\?xml[^>]*>\s*(<!--[^>]*-->\s*)?`)

// SVG returns the chart as an SVG element, ready to inline into HTML.
func (c *Chart) SVG() ([]byte, error) {
	w, h := c.size()
	cv := vgsvg.New(w, h)
	if err := c.draw(cv); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart %s: svg: %w", c.ID, err)
	}
	return xmlDecl.ReplaceAll(buf.Bytes(), nil), nil
}

// PNG returns the chart as a PNG image at 144 dots per inch.
func (c *Chart) PNG() ([]byte, error) {
	w, h := c.size()
	cv := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(144))}
	if err := c.draw(cv); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart %s: png: %w", c.ID, err)
	}
	return buf.Bytes(), nil
}

// ID turns a title into an ID safe in file names and HTML.
func ID(parts ...string) string {
	s := strings.ToLower(strings.Join(parts, "-"))
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
