package report

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/charts"
)

// TestBarsAreColouredByAPI: every bar chart of the fixture's report has a
// legend; in each workload chart every bar has its target's API colour (in
// the shade of its series), and the drawn SVG fills bars with the colour of
// every API it shows and names each in its legend.
func TestBarsAreColouredByAPI(t *testing.T) {
	r := fixtureReport(t)
	hex := func(c color.Color) string {
		rgba := color.RGBAModel.Convert(c).(color.RGBA)
		return fmt.Sprintf("#%02X%02X%02X", rgba.R, rgba.G, rgba.B)
	}
	apiOf := map[string]string{}
	for _, c := range r.Cells {
		apiOf[c.Column()] = c.Keys["api"]
	}
	bars, workloads := 0, 0
	for _, sec := range r.Sections() {
		for _, ch := range sec.Charts {
			if ch.Bars == nil {
				continue
			}
			bars++
			if len(ch.Legend) == 0 {
				t.Errorf("bar chart %s has no legend", ch.ID)
			}
			svg, err := ch.SVG()
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ch.Legend {
				if !strings.Contains(string(svg), ">"+e.Name+"<") {
					t.Errorf("chart %s: legend %q not drawn", ch.ID, e.Name)
				}
			}
			if sec.Table == nil {
				continue
			}
			workloads++
			for i, s := range ch.Bars.Series {
				for j, cat := range ch.Bars.Categories {
					api, ok := apiOf[cat]
					if !ok {
						api = apiOf[strings.Fields(cat)[0]] // latency charts: "target net=tcp"
					}
					if want := shade(apiColor(api), shadeIndex(ch, i)); s.Colors[j] != want {
						t.Errorf("chart %s: bar %s of %s is %v, want the %s colour %v", ch.ID, s.Name, cat, s.Colors[j],
							api, want)
					}
					if !strings.Contains(string(svg), "fill:"+hex(s.Colors[j])) {
						t.Errorf("chart %s: no bar filled %s", ch.ID, hex(s.Colors[j]))
					}
				}
			}
			for _, api := range []string{"sql", "native"} {
				for _, cat := range ch.Bars.Categories {
					if apiOf[cat] == api && !strings.Contains(string(svg), ">"+APILabel(api)+"<") {
						t.Errorf("chart %s: %s bars but no %q in the legend", ch.ID, api, APILabel(api))
					}
				}
			}
		}
	}
	if bars < 10 || workloads < 8 {
		t.Errorf("%d bar charts, %d of workloads: the fixture should give more", bars, workloads)
	}
}

// shadeIndex is the shade of series i of a chart: latency charts draw p50
// lighter and p99.9 darker than p99.
func shadeIndex(ch *charts.Chart, i int) int {
	if strings.HasSuffix(ch.ID, "-latency") {
		return []int{1, 0, 2}[i]
	}
	return i
}
