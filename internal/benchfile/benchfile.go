// Package benchfile writes and reads sqlbench results files: the Go benchmark
// format, through golang.org/x/perf/benchfmt, so that benchstat reads them.
// A file starts with unit metadata, the session's own facts as comment
// lines ("# session-id: k3x9qa"), and configuration lines (environment,
// versions, settings), followed by one result line per run.
//
// benchfmt, and so benchstat, group results by their configuration: two
// files whose configuration lines differ land in separate tables instead
// of one comparison. The facts that differ from one session to the next
// without changing what is measured (IsSessionFact: the id, the start
// time, the command line, sqlbench's own version, a server's process id)
// are therefore written as comment lines, which benchfmt skips and Read
// turns back into configuration, so that `benchstat old.txt new.txt`
// compares two sessions of the same settings cell by cell.
package benchfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/unit"
)

// Units is the one table of the units sqlbench writes, in the order they
// appear on a result line: which direction is better, their names in
// tables and thresholds, and what their values count.
func Units() []UnitInfo {
	return []UnitInfo{
		{Unit: unit.NsPerOp, Better: "lower", Label: "ns/op"},
		{Unit: unit.OpsPerSec, Better: "higher", Label: "ops/s"},
		{Unit: unit.BytesPerOp, Better: "lower", Label: "B/op"},
		{Unit: unit.AllocsPerOp, Better: "lower", Label: "allocs/op", Short: "allocs"},
		{Unit: unit.P50, Better: "lower", Label: "p50 latency", Short: "p50", Of: Nanoseconds},
		{Unit: unit.P99, Better: "lower", Label: "p99 latency", Short: "p99", Of: Nanoseconds},
		{Unit: unit.P999, Better: "lower", Label: "p99.9 latency", Short: "p99.9", Of: Nanoseconds},
		{Unit: unit.MBPerSec, Better: "higher", Label: "MB/s"},
		{Unit: unit.PeakRSS, Better: "lower", Label: "peak RSS", Of: Bytes},
		{Unit: unit.RSSGrowth, Better: "lower", Label: "RSS growth", Of: Bytes},
		{Unit: unit.Instructions, Better: "lower", Label: "instructions/op", Short: "instructions"},
		// An open-loop run's (--rate): counts of a run, not per operation.
		{Unit: unit.Lag, Better: "lower", Label: "schedule lag", Of: Nanoseconds}, // no Short: not a percentile
		{Unit: unit.Late, Better: "lower", Label: "late"},
		{Unit: unit.Skipped, Better: "lower", Label: "skipped"},
		{Unit: unit.DoneRate, Better: "higher", Label: "done ops/s"},
		// The pool family's (workloads/pool.go, HikariCP's in the JDBC
		// runner): the waits for a connection, from the pool's counters.
		{Unit: unit.PoolWaits, Better: "lower", Label: "pool waits"},
		{Unit: unit.PoolWait, Better: "lower", Label: "pool wait", Of: Nanoseconds},
		{Unit: unit.PoolAcquire, Better: "lower", Label: "pool acquire", Of: Nanoseconds},
		// A spin variant's spin follows --targets, not the target: no best.
		{Unit: unit.Spin, Better: "lower", Label: "spin", Of: Nanoseconds, Setting: true},
	}
}

// LookupUnit returns the entry of Units for the unit name, as written on a result
// line.
func LookupUnit(name string) (UnitInfo, bool) {
	for _, u := range Units() {
		if u.Unit == name {
			return u, true
		}
	}
	return UnitInfo{}, false
}

// HigherIsBetter reports whether more of the unit name is better: as Units says
// for a unit sqlbench writes; for any other (a published study's ms,
// queries/s), when it is a rate ("/s").
func HigherIsBetter(name string) bool {
	if u, ok := LookupUnit(name); ok {
		return u.Better == "higher"
	}
	return strings.HasSuffix(name, "/s")
}

// UnitInfo is a unit sqlbench writes.
type UnitInfo struct {
	// Unit is the unit as written on a result line ("p99-ns/op").
	Unit string
	// Better is the direction that is better: "higher" or "lower".
	Better string
	// Label names it in a table ("p99 latency"); Short, if set, is the
	// short name a threshold may give it ("p99").
	Label, Short string
	// Of is what a value counts, for its scaling: Nanoseconds, Bytes, or
	// "" for a plain count.
	Of string
	// Setting is set for a unit whose values follow the user's setting
	// rather than the target (a spin variant's spin): no best is marked.
	Setting bool
}

// What the values of a unit count (UnitInfo.Of).
const (
	Nanoseconds = "ns"
	Bytes       = "B"
)

// Writer writes a results file. Every record reaches the file as it is
// written, so finished runs survive an interrupted session.
type Writer struct {
	closed bool
	name   string
	f      *os.File
	bw     *benchfmt.Writer
	config []benchfmt.Config
	// facts are the session facts set (IsSessionFact), in order; written
	// is how many of them reached the file.
	facts   [][2]string
	written int
	// made is the outermost directory Create made for the file, "" when
	// the directory was there: Discard removes what Create made.
	made string
}

// Mode says what Create does when the results file exists.
type Mode int

const (
	// Exclusive refuses a path that exists: a results file is never
	// overwritten by accident.
	Exclusive Mode = iota
	// Unique takes the first free path of path, path-2, path-3 ... (the
	// suffix before the extension): two sessions started in the same
	// second each get a file of their own.
	Unique
	// Overwrite truncates an existing file.
	Overwrite
)

// ErrExists is returned by Create in Exclusive mode for a path that exists.
var ErrExists = errors.New("exists")

// Create creates the results file at path, making its directory if needed.
// It fails early, before any benchmark runs, when the path is not writable;
// what it does with an existing file is mode's.
func Create(path string, mode Mode) (*Writer, error) {
	made := missingDir(filepath.Dir(path))
	if made != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("results file %s: %w", path, errors.Unwrap(err))
		}
	}
	flags := os.O_RDWR | os.O_CREATE | os.O_EXCL
	if mode == Overwrite {
		flags = os.O_RDWR | os.O_CREATE | os.O_TRUNC
	}
	name := path
	for i := 2; ; i++ {
		f, err := os.OpenFile(name, flags, 0o644)
		if err == nil {
			return &Writer{name: name, f: f, bw: benchfmt.NewWriter(f), made: made}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("results file %s: %w", name, unwrapPath(err))
		}
		if mode != Unique {
			return nil, fmt.Errorf("results file %s: %w", name, ErrExists)
		}
		if i > 1000 {
			return nil, fmt.Errorf("results file %s: a thousand names taken", path)
		}
		ext := filepath.Ext(path)
		name = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), i, ext)
	}
}

// missingDir returns the outermost ancestor of dir, dir included, that
// does not exist, or "" when dir exists (or cannot be looked at).
func missingDir(dir string) string {
	missing := ""
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			return missing
		}
		missing = d
		if filepath.Dir(d) == d {
			return missing
		}
	}
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// SetConfig sets a file configuration key for the results written after it.
// Keys are lower-case words joined by '-'; values are one line. A session
// fact (IsSessionFact) is written as a comment line instead, before the
// next result, and read back as configuration by Read.
func (w *Writer) SetConfig(key, value string) {
	if IsSessionFact(key) {
		w.facts = append(w.facts, [2]string{key, value})
		return
	}
	for i := range w.config {
		if w.config[i].Key == key {
			w.config[i].Value = []byte(value)
			return
		}
	}
	w.config = append(w.config, benchfmt.Config{Key: key, Value: []byte(value), File: true})
}

// sessionFacts are the configuration keys of what differs between two
// sessions of the same settings on the same machine without changing what
// they measure.
func sessionFacts() []string {
	return []string{"session-id", "began", "started", "finished", "sqlbench", "sqlbench-command", "runner-source",
		KeyRunnerBuild, "cpuprofile", KeyIdleLatencyAuto,
		"link-rtt", "link-cpu"} // the link's measured round trip and its proxy's CPU (run --link)
}

// sessionFactPrefixes are the beginnings of the keys of facts measured
// during a session: the wake-up round trips ("wakeup", "wakeup-run-3") and
// the drift loop's median time ("drift").
// An open-loop run's time series ("series-3", run --progress) is one too.
func sessionFactPrefixes() []string { return []string{"wakeup", "drift", "series"} }

// sessionFactSuffixes are the endings of the keys of such facts about a
// database server (its process id and how long it took to start) and
// about a runner: the CPU priority it could give itself, which changes no
// operation of a run (runner.RaisePriority).
func sessionFactSuffixes() []string {
	return []string{"-server-pid", "-server-ready", "-runner-priority"}
}

// IsSessionFact reports whether key is a fact of one session (its id,
// start time, command line, sqlbench's version and runner sources, the CPU
// profile directory, a server's process id and start-up time, the wake-up
// round trips and the drift loop timed during it) rather than
// a setting or a property of the machine or the drivers: such keys are
// written as comment lines, so that benchstat does not split two sessions
// of the same settings into separate tables over them.
func IsSessionFact(key string) bool {
	if slices.Contains(sessionFacts(), key) {
		return true
	}
	for _, suf := range sessionFactSuffixes() {
		if strings.HasSuffix(key, suf) {
			return true
		}
	}
	for _, pre := range sessionFactPrefixes() {
		if key == pre || strings.HasPrefix(key, pre+"-") {
			return true
		}
	}
	return false
}

// factPrefix starts a session fact's line.
const factPrefix = "# "

// writeFacts writes the session facts not yet in the file.
func (w *Writer) writeFacts() error {
	var b strings.Builder
	for _, f := range w.facts[w.written:] {
		fmt.Fprintf(&b, "%s%s: %s\n", factPrefix, f[0], f[1])
	}
	if b.Len() == 0 {
		return nil
	}
	if _, err := io.WriteString(w.f, b.String()); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	w.written = len(w.facts)
	return nil
}

// WriteUnits writes the unit metadata lines that tell benchstat which
// direction is better for each unit sqlbench writes, then the session
// facts set so far.
func (w *Writer) WriteUnits() error {
	for _, u := range Units() {
		m := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.Unit, Key: "better"},
			OrigUnit: u.Unit, Value: u.Better}
		if err := w.bw.Write(m); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
	}
	return w.writeFacts()
}

// Write writes one result under the current configuration, its values
// rounded to the precision they were measured with (Precise); r keeps them
// so, and is given the session facts as configuration, as Read gives them.
func (w *Writer) Write(r *benchfmt.Result) error { return w.WriteTarget(r, "") }

// WriteTarget is Write of a cell of the target named target (as --targets
// and sqlbench list name it): the line's name carries it as the key
// target= after db= (WithTarget), so that the file names each cell as the
// user does; r keeps its name. Read takes the key out again.
func (w *Writer) WriteTarget(r *benchfmt.Result, target string) error {
	if err := w.writeFacts(); err != nil {
		return err
	}
	r.Config = append(r.Config[:0:0], w.config...)
	line := zerosTidied(Precise(r))
	if target != "" {
		if line == r {
			line = r.Clone()
		}
		line.Name = benchfmt.Name(WithTarget(string(r.Name), target))
	}
	if err := w.bw.Write(line); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	// The result in memory carries the session's facts as Read gives
	// them back (the file has them once, as comment lines).
	for _, f := range w.facts {
		r.SetConfig(f[0], f[1])
		if pos, ok := r.ConfigIndex(f[0]); ok {
			r.Config[pos].File = true
		}
	}
	return nil
}

// Name returns the file's path.
func (w *Writer) Name() string { return w.name }

// Rename moves the file to path (replacing what is there) and goes on
// writing it there.
func (w *Writer) Rename(path string) error {
	if err := os.Rename(w.name, path); err != nil {
		return fmt.Errorf("results file %s: %w", path, unwrapPath(err))
	}
	w.name, w.made = path, "" // a file moved is kept: nothing to discard
	return nil
}

// Close writes the session facts set since the last result, flushes the
// file to disk and closes it. Closing twice is a no-op.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if err := w.writeFacts(); err != nil {
		w.f.Close()
		return err
	}
	if err := w.f.Sync(); err != nil {
		w.f.Close()
		return fmt.Errorf("write results: %w", err)
	}
	return w.f.Close()
}

// Discard closes the file and removes it, and the directories Create made
// for it while they are empty: for a session that ended before it wrote
// anything worth keeping.
func (w *Writer) Discard() error {
	w.Close()
	if err := os.Remove(w.name); err != nil {
		return err
	}
	if w.made == "" {
		return nil
	}
	for d := filepath.Dir(w.name); ; d = filepath.Dir(d) {
		if os.Remove(d) != nil || d == w.made || filepath.Dir(d) == d {
			return nil // one that is not empty now is another's too
		}
	}
}

// Set is what was read from one or more results files.
type Set struct {
	// Results in file order; each carries the file configuration in force.
	Results []*benchfmt.Result
	// Units is the unit metadata read.
	Units benchfmt.UnitMetadataMap
	// Cut, when set, says that the file ended in the middle of a line (a
	// full disk, a killed process) and that this line was left out: the
	// results are those of its complete lines.
	Cut string
}

// factLine matches a session fact's comment line: "# key: value".
var factLine = regexp.MustCompile(`^# ([a-z][^\sA-Z:]*): (.*)$`)

// Read reads results from r (named name in errors). A line that is not in
// the Go benchmark format is an error naming its position. Session facts
// (IsSessionFact), written as comment lines, are given to every result as
// file configuration, after the configuration lines. Values are rid of
// float64's noise (12 significant digits), which files of earlier versions
// and other writers carry; what Write wrote they keep as written. A last
// line without its end of line was cut off: it is left out, and Set.Cut
// says so. A name's target= key is taken out (WithoutTarget): a cell has
// the same name in the files of every version.
func Read(r io.Reader, name string) (*Set, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	set := &Set{}
	if i := bytes.LastIndexByte(b, '\n'); i < len(b)-1 && len(bytes.TrimSpace(b[i+1:])) > 0 {
		// Every writer ends its lines; one without its end was cut off.
		set.Cut = fmt.Sprintf("%s ends in the middle of line %d (cut off: a full disk or a killed process?); "+
			"its results are those of the complete lines before it", name, bytes.Count(b, []byte{'\n'})+1)
		b = b[:i+1]
	}
	var facts []benchfmt.Config
	for _, line := range strings.Split(string(b), "\n") {
		if m := factLine.FindStringSubmatch(strings.TrimSuffix(line, "\r")); m != nil {
			facts = slices.DeleteFunc(facts, func(c benchfmt.Config) bool { return c.Key == m[1] })
			facts = append(facts, benchfmt.Config{Key: m[1], Value: []byte(m[2]), File: true})
		}
	}
	br := benchfmt.NewReader(bytes.NewReader(b), name)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.Result:
			res := zerosAsWritten(denoise(rec.Clone())) // files of earlier versions carry float64 noise
			res.Name = benchfmt.Name(WithoutTarget(string(res.Name)))
			for _, f := range facts {
				if _, ok := res.ConfigIndex(f.Key); !ok {
					res.SetConfig(f.Key, string(f.Value)) // keeps the result's index of keys
					pos, _ := res.ConfigIndex(f.Key)
					res.Config[pos].File = true
				}
			}
			set.Results = append(set.Results, res)
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("corrupt results file: %v", rec)
		}
	}
	if err := br.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	set.Units = br.Units()
	return set, nil
}

// ReadFile reads one results file.
func ReadFile(path string) (*Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("results file %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	return Read(f, path)
}

// TargetKey is the key of a result name that names the cell's target as
// the user does (target=jdbc-sqlite); the driver= and api= keys stay, for
// the files of earlier versions and benchstat's grouping.
const TargetKey = "target"

// WithTarget returns the result name with target=NAME after its db= key
// (or after its base name when there is none).
func WithTarget(name, target string) string {
	parts := strings.Split(name, "/")
	at := 1
	for i, p := range parts {
		if strings.HasPrefix(p, "db=") {
			at = i + 1
			break
		}
	}
	at = min(at, len(parts))
	return strings.Join(slices.Insert(parts, at, TargetKey+"="+target), "/")
}

// WithoutTarget returns the result name without its target= key.
func WithoutTarget(name string) string {
	if !strings.Contains(name, "/"+TargetKey+"=") {
		return name
	}
	parts := strings.Split(name, "/")
	rest := slices.DeleteFunc(parts[1:], func(p string) bool { return strings.HasPrefix(p, TargetKey+"=") })
	return strings.Join(append(parts[:1], rest...), "/")
}
