package charts

import (
	"bytes"
	"image/png"
	"math"
	"strings"
	"testing"
)

func TestIDIsSafeInFileNames(t *testing.T) {
	if got := ID("Point Select", "db=sqlite", "latency"); got != "point-select-db-sqlite-latency" {
		t.Errorf("ID = %q", got)
	}
}

func TestBarChartDrawsAsSVGAndPNG(t *testing.T) {
	nan := math.NaN()
	c := &Chart{ID: "c", Title: "ops/s by target", XLabel: "target", YLabel: "ops/s",
		Bars: &BarData{Categories: []string{"a", "b"}, Series: []BarSeries{
			{Name: "s", Values: []float64{12000, nan}, Lo: []float64{11000, nan}, Hi: []float64{13000, nan}},
		}}}
	if c.Points() != 1 {
		t.Errorf("Points = %d, want 1 (the NaN is no value)", c.Points())
	}
	svg, err := c.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(svg, []byte("<svg")) || !strings.Contains(string(svg), "ops/s by target") {
		t.Errorf("SVG does not start with <svg or lacks the title: %.200s", svg)
	}
	b, err := c.PNG()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("PNG does not decode: %v", err)
	}
}
