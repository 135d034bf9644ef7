package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

//go:embed html.tmpl
var htmlTemplate string

// htmlPage is what html.tmpl shows.
type htmlPage struct {
	Heading, Legend string
	Sections        []htmlSection
	Failed          []Failure
	Env             []textlayout.Table
}

// htmlSection is a section of the page: text, tables and charts.
type htmlSection struct {
	ID, Title, Text string
	Tables          []textlayout.Table
	Charts          []htmlChart
}

// htmlChart is a chart drawn as inline SVG.
type htmlChart struct {
	ID, Title string
	// Points is the number of data values drawn, for the browser test.
	Points int
	SVG    template.HTML
}

// HTML writes the report as one self-contained HTML page: the tables, a
// bar chart per workload (drivers side by side, with the confidence
// intervals as error bars), a line chart per sweep, the derived views and
// the environment. Charts are inline SVG drawn by gonum.org/v1/plot; the
// page loads nothing else, so it works offline from a file.
func HTML(w io.Writer, r *Report) error {
	tmpl, err := template.New("report").Parse(htmlTemplate)
	if err != nil {
		return fmt.Errorf("html template: %w", err)
	}
	var head bytes.Buffer
	writeSourceLine(&head, r)
	page := htmlPage{
		Heading: head.String(),
		Legend: fmt.Sprintf(
			"Values are operations per second, the median of %s; ± is the %s confidence interval of the median as "+
				"a share of it (the error bars in the charts); bold is the best in its row where its interval "+
				"clears every other target's; a row without bold is a tie at this confidence. %s "+measuresText+
				" Bars are coloured by API: "+apiLegendText()+".",
			r.RunsLabel(),
			r.ConfLabel(),
			ratioText(r.Baseline, r.resolution()),
		),
		Failed: r.Failed,
		Env:    envGrids(r.Env),
	}
	for _, p := range r.Parts {
		page.Sections = append(page.Sections, htmlSection{ID: p.ID, Title: p.Title, Text: p.Text, Tables: p.Tables})
	}
	floor := r.Floor()
	for _, sec := range r.Sections() {
		hs := htmlSection{ID: sec.ID, Title: sec.Title}
		switch {
		case sec.Table != nil:
			hs.Tables = familyGrids(sec.Table, r.Baseline, r.resolution())
		case sec.ID == "overhead":
			hs.Text, hs.Tables = overheadText, overheadGrids(r.Overhead())
		case sec.ID == "floor":
			hs.Text, hs.Tables = floorText+" Floors: "+floorNote(floor)+".", floorGrids(floor)
		case sec.ID == "scaling":
			hs.Text, hs.Tables = scalingText, scalingGrids(Scalings(r.Sweeps()))
		}
		for _, c := range sec.Charts {
			svg, err := c.SVG()
			if err != nil {
				return err
			}
			hs.Charts = append(
				hs.Charts,
				htmlChart{ID: sec.ID + "-" + c.ID, Title: c.Title, Points: c.Points(), SVG: template.HTML(svg)},
			)
		}
		page.Sections = append(page.Sections, hs)
	}
	ol, err := openLoopHTML(r) // openloop.go
	if err != nil {
		return err
	}
	if ol != nil {
		page.Sections = append(page.Sections, *ol)
	}
	if err := tmpl.Execute(w, page); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	return nil
}
