package report

import (
	"math"
	"slices"
	"strconv"
)

// OverheadPair is one database/sql overhead figure: a cell run through
// database/sql and the same cell (workload, database, driver and every
// other key) through the driver's native API.
type OverheadPair struct {
	// Row is the workload with any extra keys; DB and Driver the rest.
	Row, DB, Driver string
	SQL, Native     *Cell
}

// Ratio is native ops/s over database/sql ops/s: how many times slower the
// database/sql path is (above 1: database/sql is slower).
func (p OverheadPair) Ratio() float64 { return p.Native.Ops.Center / p.SQL.Ops.Center }

// CrossPair is two drivers on one engine that a published study set side
// by side, one through its native API and one through database/sql: the
// overhead view pairs their cells as it pairs a driver's own two APIs,
// under the column "Native vs SQL".
type CrossPair struct {
	// DB is the db key; Native and SQL the driver keys of the api=native
	// and the api=sql cells.
	DB, Native, SQL string
	// Why says what the two share and who compared them.
	Why string
}

// CrossPairs are the cross-driver pairs of the overhead view.
func CrossPairs() []CrossPair {
	return []CrossPair{
		{
			"sqlite",
			"eatonphil",
			"mattn",
			"the database/sql-overhead study (databases-intuition, 2023) compared eatonphil/gosqlite with " +
				"mattn/go-sqlite3: both cgo bindings of SQLite's C code",
		},
		{
			"sqlite",
			"bvinc",
			"mattn",
			"bvinc/go-sqlite-lite, which gosqlite forked, against mattn/go-sqlite3: both cgo bindings of SQLite's " +
				"C code",
		},
		{
			"sqlite",
			"zombiezen",
			"modernc",
			"zombiezen.com/go/sqlite runs on modernc.org/sqlite's engine (SQLite's C translated to Go); " +
				"go-sqlite-bench compared them",
		},
		{
			"sqlite",
			"crawshaw",
			"mattn",
			"the Sqinn-Go and go-sqlite-bench studies compared crawshaw.io/sqlite with mattn/go-sqlite3: both cgo " +
				"bindings of SQLite's C code",
		},
		{
			"postgres",
			"pgx",
			"pq",
			"the database/sql-overhead study (databases-intuition, 2023) compared pgx's native CopyFrom with " +
				"lib/pq's CopyIn: two clients of PostgreSQL's wire protocol",
		},
	}
}

// Overhead pairs every cell run with api=sql with its api=native twin, and
// the cells of the CrossPairs drivers.
func (r *Report) Overhead() []OverheadPair {
	native := map[string]*Cell{}
	for _, c := range r.Cells {
		if c.Keys["api"] == "native" {
			native[twinKey(c, c.Keys["driver"])] = c
		}
	}
	var out []OverheadPair
	add := func(c *Cell, nativeDriver, label string) {
		if n, ok := native[twinKey(c, nativeDriver)]; ok && c.Ops.Center > 0 && n.Ops.Center > 0 {
			out = append(out, OverheadPair{Row: c.Row(), DB: c.Keys["db"], Driver: label, SQL: c, Native: n})
		}
	}
	for _, c := range r.Cells {
		if c.Keys["api"] == "sql" {
			add(c, c.Keys["driver"], c.Keys["driver"])
		}
	}
	for _, x := range CrossPairs() {
		for _, c := range r.Cells {
			if c.Keys["api"] == "sql" && c.Keys["db"] == x.DB && c.Keys["driver"] == x.SQL {
				add(c, x.Native, x.Native+" vs "+x.SQL)
			}
		}
	}
	return out
}

// twinKey is a cell's name without its api, with driver for its driver.
func twinKey(c *Cell, driver string) string {
	return c.Workload + "/" + c.Keys["db"] + "/" + driver + "/" + extraLabel(c.Name, "")
}

// Floor workloads: the transport's own cost, measured in the same run.
const (
	FloorWorkload = "TCPRoundTrip"
	FloorDB       = "loopback"
	// floorSize is the message size preferred for the floor, in bytes.
	floorSize = 16
)

// FloorDistance is a networked cell's ns/op as a multiple of a loopback
// TCP round trip measured in the same results.
type FloorDistance struct {
	Cell  *Cell
	Floor *Cell
	// Times is Cell's median ns/op over Floor's.
	Times float64
}

// Floor returns the distance to the floor of every networked cell (one with
// a net key, outside the loopback floor rows): its ns/op over the loopback
// TCP round trip of the same size if the cell has a size and such a floor
// row exists, else of the 16 B (or the smallest) round trip. It returns nil
// when the results hold no round trip.
func (r *Report) Floor() []FloorDistance {
	bySize := map[int64]*Cell{}
	var def *Cell
	var defSize int64
	for _, c := range r.Cells {
		if c.Workload != FloorWorkload || c.Keys["db"] != FloorDB || c.NsPerOp.Center <= 0 {
			continue
		}
		size, err := strconv.ParseInt(c.Keys["size"], 10, 64)
		if err != nil {
			size = math.MaxInt64
		}
		bySize[size] = c
		if def == nil || preferFloor(size, defSize) {
			def, defSize = c, size
		}
	}
	if def == nil {
		return nil
	}
	var out []FloorDistance
	for _, c := range r.Cells {
		if c.Keys["db"] == FloorDB || c.Keys["net"] == "" || c.NsPerOp.Center <= 0 {
			continue
		}
		f := def
		if size, err := strconv.ParseInt(c.Keys["size"], 10, 64); err == nil && bySize[size] != nil {
			f = bySize[size]
		}
		out = append(out, FloorDistance{Cell: c, Floor: f, Times: c.NsPerOp.Center / f.NsPerOp.Center})
	}
	return out
}

// preferFloor reports whether a round trip of size a bytes makes a better
// floor than one of size b: 16 B first, then the smallest.
func preferFloor(a, b int64) bool {
	if (a == floorSize) != (b == floorSize) {
		return a == floorSize
	}
	return a < b
}

// Scaling is a concurrency sweep seen as speed-up: each line's ops/s over
// its ops/s at the lowest concurrency, against the ideal linear speed-up.
type Scaling struct {
	*Sweep
}

// Speedup returns the speed-up of point i of line l over the line's first
// point.
func (s Scaling) Speedup(l SweepLine, i int) float64 {
	return l.Points[i].Cell.Ops.Center / l.Points[0].Cell.Ops.Center
}

// Ideal returns the ideal (linear) speed-up at x.
func (s Scaling) Ideal(x float64) float64 { return x / s.Xs[0] }

// Scalings returns the concurrency sweeps (key conns) of sweeps.
func Scalings(sweeps []*Sweep) []Scaling {
	var out []Scaling
	for _, s := range sweeps {
		if s.Key == "conns" && s.Xs[0] > 0 {
			out = append(out, Scaling{s})
		}
	}
	return out
}

// groupBy returns the distinct values of key(x) over xs, in order of first
// appearance.
func groupBy[T any](xs []T, key func(T) string) []string {
	var out []string
	for _, x := range xs {
		out = appendNew(out, key(x))
	}
	return out
}

// appendNew appends x to xs unless xs holds it already.
func appendNew[T comparable](xs []T, x T) []T {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}
