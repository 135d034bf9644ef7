package session

import (
	"fmt"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/unit"
)

// Slice is what a runner measured for one slice of a run (or for a whole
// run, of one slice): its result line, and, for a workload that times its
// operations one by one, the slice's latency histogram as the runner sent
// it (HdrHistogram's V2 compressed encoding, base64).
type Slice struct {
	Result  *benchfmt.Result
	Latency string
	// Progress are an open-loop slice's intervals (run --progress), each
	// as the runner wrote it after protocol.ProgressKey; not journaled.
	Progress []string
}

// SliceKey names a slice in a session: the cell's name, the run and the
// slice, counted from 1.
type SliceKey struct {
	Cell       string
	Run, Slice int
}

// runSum adds up the slices of one run as they arrive; the run's result is
// computed when the last has.
type runSum struct {
	slices []Slice
}

// merge returns the run's result named name, in the units benchfmt's
// reader gives (sec/op for ns/op, B/s for MB/s): operations summed; per
// operation units (time, B/op, allocs/op, and any other "/op" unit)
// weighted by each slice's operations; rates (ops/s, MB/s) recomputed from
// the merged time per operation; sizes ("-B" units: peak RSS) the largest;
// percentiles from the slices' histograms merged, or left out when a slice
// has none; counts of a run (an open-loop run's late and skipped) summed.
func (r *runSum) merge(name string) (*benchfmt.Result, error) {
	if len(r.slices) == 1 && r.slices[0].Latency == "" {
		return r.slices[0].Result, nil
	}
	type acc struct {
		sum, max float64
		total    float64 // the values added up, unweighted
		seen     int
		// origUnit and factor give the unit as the runner wrote it (ns/op
		// for sec/op): the results file keeps the runner's units.
		origUnit string
		factor   float64
	}
	var order []string
	accs := map[string]*acc{}
	ops := 0
	hist := bench.NewLatencyHistogram()
	merged := true
	for _, sl := range r.slices {
		n := float64(sl.Result.Iters)
		ops += sl.Result.Iters
		// benchfmt's reader has tidied the units: ns/op is sec/op, MB/s B/s.
		sec, ok := sl.Result.Value("sec/op")
		if !ok || n <= 0 {
			return nil, fmt.Errorf("a slice of %s has no ns/op", name)
		}
		for _, v := range sl.Result.Values {
			if v.OrigUnit == "" {
				// benchfmt's reader leaves a zero as written (0
				// runq-ns/op): tidy it as the other slices' values are,
				// so that one unit is summed under one name.
				if tv, tu := benchunit.Tidy(v.Value, v.Unit); tu != v.Unit {
					v = benchfmt.Value{Value: tv, Unit: tu, OrigValue: v.Value, OrigUnit: v.Unit}
				}
			}
			a, ok := accs[v.Unit]
			if !ok {
				a = &acc{}
				accs[v.Unit] = a
				order = append(order, v.Unit)
			}
			if v.OrigUnit != "" {
				// The unit as written, whatever the value; its factor from
				// the first value that gives one (a unit zero in every
				// slice, a run queue never waited in, stays zero).
				a.origUnit = v.OrigUnit
				if a.factor == 0 && v.Value != 0 {
					a.factor = v.OrigValue / v.Value
				}
			}
			a.seen++
			a.total += v.Value
			a.max = max(a.max, v.Value)
			if strings.HasSuffix(v.Unit, "/s") {
				a.sum += v.Value * sec * n // the rate's quantity per operation, times operations
			} else {
				a.sum += v.Value * n
			}
		}
		if sl.Latency == "" {
			merged = false
			continue
		}
		h, err := hdrhistogram.Decode([]byte(sl.Latency))
		if err != nil {
			return nil, fmt.Errorf("a slice of %s has an unreadable %s line: %w", name, protocol.LatencyKey, err)
		}
		hist.Merge(h)
	}
	secOp := accs["sec/op"].sum / float64(ops)
	percentile := map[string]float64{"p50-sec/op": 50, "p99-sec/op": 99, "p99.9-sec/op": 99.9}
	var vals []benchfmt.Value
	for _, unit := range order {
		a := accs[unit]
		if a.seen != len(r.slices) {
			continue // a unit not every slice has cannot describe the run
		}
		var v float64
		switch q, isPct := percentile[unit]; {
		case isPct:
			if !merged {
				continue
			}
			v = float64(hist.ValueAtQuantile(q)) / 1e9 // the histogram is in ns
		case strings.HasSuffix(unit, "/s"):
			v = a.sum / float64(ops) / secOp
		case strings.HasSuffix(unit, "-B"):
			v = a.max
		case isCount(unit):
			v = a.total
		default:
			v = a.sum / float64(ops)
		}
		val := benchfmt.Value{Value: v, Unit: unit}
		if a.origUnit != "" {
			val.OrigValue, val.OrigUnit = v*a.factor, a.origUnit
		}
		vals = append(vals, val)
	}
	return &benchfmt.Result{Name: benchfmt.Name(name), Iters: ops, Values: vals}, nil
}

// isCount reports whether a unit counts something of a whole run rather
// than per operation: the slices' values add up.
func isCount(u string) bool { return u == unit.Late || u == unit.Skipped }
