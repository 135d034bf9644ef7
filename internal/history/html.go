package history

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"golang.org/x/perf/benchunit"

	"github.com/sqlbench/sqlbench/internal/charts"
)

// WriteHTML writes a page of the series: for each, its trend as WriteText
// prints it and a chart (gonum/plot, through charts.Chart) of its
// sessions' values with the medians of its segments between change points.
func WriteHTML(w io.Writer, series []Series) error {
	type block struct {
		Title string
		Text  string
		SVG   template.HTML
	}
	var blocks []block
	for i, sr := range series {
		if len(sr.Points) == 0 {
			continue
		}
		var text strings.Builder
		if err := WriteText(&text, []Series{sr}, false); err != nil {
			return err
		}
		svg, err := trendChart(fmt.Sprintf("trend-%d", i), sr).SVG()
		if err != nil {
			return fmt.Errorf("history chart of %s: %w", sr.Name, err)
		}
		blocks = append(blocks, block{Title: sr.Name + " · " + sr.Unit, Text: text.String(),
			SVG: template.HTML(svg)}) // gonum's SVG, no user text unescaped
	}
	if err := page.Execute(w, blocks); err != nil {
		return fmt.Errorf("history page: %w", err)
	}
	return nil
}

// trendChart is a series' chart: a point per session (x its place in the
// series), and the median of each segment as a dashed line.
func trendChart(id string, sr Series) *charts.Chart {
	vals := make([]float64, len(sr.Points))
	unit := sr.Unit
	for j, p := range sr.Points {
		vals[j], unit = benchunit.Tidy(p.Value, sr.Unit)
	}
	sc := benchunit.CommonScale(vals, benchunit.ClassOf(unit))
	pts := charts.LineSeries{Name: "each session's median"}
	for j, v := range vals {
		pts.X, pts.Y = append(pts.X, float64(j+1)), append(pts.Y, v/sc.Factor)
	}
	med := charts.LineSeries{Name: "segment medians", Dashed: true}
	for _, sg := range sr.Segments() {
		m, _ := benchunit.Tidy(sg.Median, sr.Unit)
		med.X = append(med.X, float64(sg.From+1)-0.5, float64(sg.To+1)+0.5)
		med.Y = append(med.Y, m/sc.Factor, m/sc.Factor)
	}
	return &charts.Chart{ID: id, Title: sr.Name, XLabel: "session (in order of start)", YLabel: sc.Prefix + unit,
		Lines: []charts.LineSeries{pts, med}}
}

var page = template.Must(template.New("history").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>sqlbench history</title>
<style>
body{font-family:sans-serif;max-width:60em;margin:auto}
pre{background:#f6f6f6;padding:.5em;overflow-x:auto}
</style>
</head>
<body>
<h1>sqlbench history</h1>
{{range .}}<h2>{{.Title}}</h2>
<pre>{{.Text}}</pre>
{{.SVG}}
{{end}}</body>
</html>
`))
