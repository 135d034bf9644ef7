package benchfile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"golang.org/x/perf/benchfmt"
)

// Named is the results of one file, named as the user named it.
type Named struct {
	Name    string
	Results []*benchfmt.Result
}

// A run of a session is identified by the session, the cell's name and the
// run's place among that cell's results in its file: a session writes one
// result line per cell per run, in run order (a resumed session goes on in
// the same file), so run i of a cell is its i-th line in every copy of the
// file, whole or cut short. A session is its session-id line; a file
// without one (a go test -bench file, a file of an early sqlbench) is
// identified by its results themselves: only an exact copy repeats it.
type runKey struct {
	session, cell string
	run           int
}

// Session returns what identifies the session of rs, and its name in a
// message: "session k3x9qa", or, for results without a session id,
// "results without a session id" and a key of the results themselves.
func Session(rs []*benchfmt.Result) (key, label string) {
	for _, r := range rs {
		if id := r.GetConfig(KeySessionID); id != "" {
			return "id:" + id, "session " + id
		}
	}
	h := sha256.New()
	for _, r := range rs {
		fmt.Fprintf(h, "%s %d", r.Name, r.Iters)
		for _, v := range r.Values {
			fmt.Fprintf(h, " %v %s", v.Value, v.Unit)
		}
		h.Write([]byte{'\n'})
	}
	return "sum:" + hex.EncodeToString(h.Sum(nil)), "results without a session id"
}

// keys returns the run key of each of rs, in order.
func keys(rs []*benchfmt.Result) []runKey {
	session, _ := Session(rs)
	seen := map[string]int{}
	out := make([]runKey, len(rs))
	for i, r := range rs {
		cell := string(r.Name)
		seen[cell]++
		out[i] = runKey{session, cell, seen[cell]}
	}
	return out
}

// Repeat says that a file holds runs a file read before it already held.
type Repeat struct {
	// File repeats Runs of its Of runs that were read from Earlier.
	File, Earlier string
	Runs, Of      int
	// Session names the session ("session k3x9qa").
	Session string
}

// String says it in one line: "b.txt repeats 54 runs of session k3x9qa
// already read from a.txt; counted once".
func (r Repeat) String() string {
	n := fmt.Sprintf("%d of its %d runs", r.Runs, r.Of)
	if r.Runs == r.Of {
		n = fmt.Sprintf("all %d runs", r.Runs)
	}
	return fmt.Sprintf("%s repeats %s of %s already read from %s; counted once", r.File, n, r.Session, r.Earlier)
}

// Merge returns the results of files in order, every run of a session
// once (its first reading kept), and a Repeat for each file that repeats
// runs of a file before it: the same file named twice, a copy under another
// name, or a copy taken while the session was still running.
func Merge(files []Named) ([]*benchfmt.Result, []Repeat) {
	var out []*benchfmt.Result
	var repeats []Repeat
	from := map[runKey]int{} // the file each run was first read from
	for i, f := range files {
		_, label := Session(f.Results)
		count := map[int]int{} // repeated runs by the earlier file
		for j, k := range keys(f.Results) {
			if e, ok := from[k]; ok {
				count[e]++
				continue
			}
			from[k] = i
			out = append(out, f.Results[j])
		}
		earlier := make([]int, 0, len(count))
		for e := range count {
			earlier = append(earlier, e)
		}
		slices.Sort(earlier)
		for _, e := range earlier {
			repeats = append(repeats, Repeat{File: f.Name, Earlier: files[e].Name, Runs: count[e], Of: len(f.Results),
				Session: label})
		}
	}
	return out, repeats
}

// Overlap is what two files have of one session.
type Overlap struct {
	// Session names it ("session k3x9qa"); "" when the files are of
	// different sessions.
	Session string
	// Shared is how many runs both hold; A and B how many each holds.
	Shared, A, B int
}

// SameSession returns what a and b have of one session: Session is ""
// when they are of two sessions.
func SameSession(a, b []*benchfmt.Result) Overlap {
	ka, la := Session(a)
	if kb, _ := Session(b); ka != kb || len(a) == 0 {
		return Overlap{}
	}
	in := map[runKey]bool{}
	for _, k := range keys(a) {
		in[k] = true
	}
	o := Overlap{Session: la, A: len(a), B: len(b)}
	for _, k := range keys(b) {
		if in[k] {
			o.Shared++
		}
	}
	return o
}
