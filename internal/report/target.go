package report

import (
	"cmp"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sqlbench/sqlbench/internal/variant"
	"github.com/sqlbench/sqlbench/targets"
)

// column is what the report knows of the target behind a driver= and api=
// pair: its name on the command line, its place in the catalogue
// (targets.All) and its API.
type column struct {
	Name string
	Rank int
	API  string
}

// catalogue maps driver and api keys to the catalogue's targets, computed
// once: the catalogue is constant.
var catalogue = sync.OnceValue(func() map[[2]string]column {
	m := map[[2]string]column{}
	for i, s := range targets.All() {
		m[[2]string{s.Driver, s.API}] = column{Name: s.Name, Rank: i, API: s.API}
	}
	return m
})

// dbRanks orders the databases as the catalogue first names them.
var dbRanks = sync.OnceValue(func() map[string]int {
	m := map[string]int{}
	for _, s := range targets.All() {
		if _, ok := m[string(s.DB)]; !ok {
			m[string(s.DB)] = len(m)
		}
	}
	return m
})

// columnOf returns the target of a cell's driver and api keys; a variant
// of a catalogue target (driver=pgx@v5.5.5: the driver at another version;
// driver=pgx+spin=50us: slowed down by a spin) is named as on the command
// line (pgx-native@v5.5.5, pgx-native+spin=50us) and ranked with its
// target; one the catalogue does not know is named driver/api and ranked
// after every known target.
func columnOf(driver, api string) column {
	if c, ok := catalogue()[[2]string{driver, api}]; ok {
		return c
	}
	if v := variant.Parse(driver); v.Base != "" && v.IsVariant() {
		if c, ok := catalogue()[[2]string{v.Base, api}]; ok {
			c.Name += v.Suffix()
			return c
		}
	}
	return column{Name: driver + "/" + api, Rank: math.MaxInt, API: api}
}

// CellLabel returns a cell's benchmark name as a person reads it: its
// db=, driver= and api= keys replaced by the target's name as --targets
// and sqlbench list name it (SimpleQuery/db=sqlite/driver=xerial/api=jdbc
// is SimpleQuery/jdbc-sqlite). A name whose driver and api the catalogue
// does not know is returned as it is.
func CellLabel(name string) string {
	parts := strings.Split(name, "/")
	var driver, api string
	for _, p := range parts {
		if v, ok := strings.CutPrefix(p, "driver="); ok {
			driver = v
		} else if v, ok := strings.CutPrefix(p, "api="); ok {
			api = v
		}
	}
	c := columnOf(driver, api)
	if driver == "" || api == "" || c.Rank == math.MaxInt {
		return name
	}
	var out []string
	for _, p := range parts {
		switch {
		case strings.HasPrefix(p, "db="), strings.HasPrefix(p, "api="):
		case strings.HasPrefix(p, "driver="):
			out = append(out, c.Name)
		default:
			out = append(out, p)
		}
	}
	return strings.Join(out, "/")
}

// compareColumns orders two column names: catalogue order, unknown targets
// last by name.
func compareColumns(a, b string) int {
	return cmp.Or(cmp.Compare(columnRank(a), columnRank(b)), strings.Compare(a, b))
}

// columnRank returns the catalogue place of the target named name (a
// column label), or MaxInt.
func columnRank(name string) int {
	if v := variant.Parse(name); v.Base != "" {
		name = v.Base // a variant ranks with its target
	}
	for _, c := range catalogue() {
		if c.Name == name {
			return c.Rank
		}
	}
	return math.MaxInt
}

// compareDBs orders databases as the catalogue does; others last by name.
func compareDBs(a, b string) int {
	ra, oka := dbRanks()[a]
	rb, okb := dbRanks()[b]
	if !oka {
		ra = math.MaxInt
	}
	if !okb {
		rb = math.MaxInt
	}
	return cmp.Or(cmp.Compare(ra, rb), strings.Compare(a, b))
}

// compareExtras orders the extra key=value parts of two row labels (what
// follows the workload): part by part, integers by value ("conns=2" before
// "conns=10"), the rest as text.
func compareExtras(a, b string) int {
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := range min(len(pa), len(pb)) {
		ka, va, _ := strings.Cut(pa[i], "=")
		kb, vb, _ := strings.Cut(pb[i], "=")
		if c := strings.Compare(ka, kb); c != 0 {
			return c
		}
		na, erra := strconv.ParseFloat(va, 64)
		nb, errb := strconv.ParseFloat(vb, 64)
		if erra == nil && errb == nil {
			if c := cmp.Compare(na, nb); c != 0 {
				return c
			}
			continue
		}
		if c := strings.Compare(va, vb); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(pa), len(pb))
}

// compareCells orders cells whatever order their results came in: database
// (catalogue order), workload (catalogue rank, then name), the other keys,
// then target (catalogue order).
func compareCells(a, b *Cell) int {
	return cmp.Or(
		compareDBs(a.Keys["db"], b.Keys["db"]),
		cmp.Compare(a.Rank, b.Rank),
		strings.Compare(a.Workload, b.Workload),
		compareExtras(a.Extra(), b.Extra()),
		compareColumns(a.Column(), b.Column()),
	)
}

// sortCells sorts cells into report order (compareCells).
func sortCells(cells []*Cell) { slices.SortStableFunc(cells, compareCells) }

// APILabel names an API key for a legend: database/sql, native, JDBC, raw
// floor.
func APILabel(api string) string {
	switch api {
	case targets.APISQL:
		return "database/sql"
	case targets.APINative:
		return "native"
	case targets.APIJDBC:
		return "JDBC"
	case targets.APIRaw:
		return "raw floor"
	}
	return api
}

// apiOrder is the order of the APIs in legends.
func apiOrder() []string {
	return []string{targets.APISQL, targets.APINative, targets.APIJDBC, targets.APIRaw}
}

// apiColor is the colour of an API's bars (Okabe-Ito, safe for colour
// blindness): database/sql blue, native orange, JDBC green, the raw floor
// grey; any other API purple.
func apiColor(api string) color.RGBA {
	hex := map[string]uint32{targets.APISQL: 0x0072B2, targets.APINative: 0xE69F00, targets.APIJDBC: 0x009E73,
		targets.APIRaw: 0x7F7F7F}[api]
	if hex == 0 {
		hex = 0xCC79A7
	}
	return color.RGBA{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 255}
}

// shade returns c lighter or darker for the i-th of several series drawn in
// one colour: the first as it is, then lighter, darker, lighter still ...
func shade(c color.RGBA, i int) color.RGBA {
	steps := []float64{0, 0.5, -0.4, 0.75, -0.65}
	t := steps[i%len(steps)]
	mix := func(v uint8) uint8 {
		if t >= 0 {
			return uint8(float64(v) + (255-float64(v))*t)
		}
		return uint8(float64(v) * (1 + t))
	}
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 255}
}

// apiLegendText names the API colours in words, for the text beside the
// charts.
func apiLegendText() string {
	names := map[string]string{targets.APISQL: "blue", targets.APINative: "orange", targets.APIJDBC: "green",
		targets.APIRaw: "grey"}
	var parts []string
	for _, api := range apiOrder() {
		parts = append(parts, APILabel(api)+" "+names[api])
	}
	return strings.Join(parts, ", ")
}
