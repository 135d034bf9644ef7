package orchestrate

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/runner"
	"github.com/sqlbench/sqlbench/targets"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// Dialer starts the runner for a driver group.
type Dialer func(ctx context.Context, group string) (launcher.Conn, error)

// Session runs a schedule against runners.
type Session struct {
	// Dial starts a runner for a group; a runner that dies is started
	// again for the next cell that needs it.
	Dial Dialer
	// Where returns where a cell's target connects: for SQLite a file of the
	// cell's own, for a server the endpoint of the cell's transport.
	Where func(c Cell) runner.Location
	// ScaleOf gives the scale each workload runs at: the factor on its
	// operation count (nil: 1, the published size).
	ScaleOf func(bench.Workload) float64
	// Warmup is the fraction of a run's operations run untimed before it;
	// workloads marked NoWarmup get none unless WarmupAll.
	Warmup    float64
	WarmupAll bool
	// SQLite holds the SQLite session settings every request carries.
	SQLite bench.SQLiteSettings
	// TimingThread is the session's --timing-thread mode: which Go cells
	// leave their timing goroutine free to move between OS threads
	// (runner.Request.FreeThread; session.FreeThreadFor).
	TimingThread string
	// ProfileDir, when set, is where the runner of every Go cell writes the
	// CPU profile of the cell's timed runs (see profileName).
	ProfileDir string
	// Timeout bounds one run of one cell, set-up included.
	Timeout time.Duration
	// Result receives every finished run, in order, as it finishes.
	Result func(*benchfmt.Result) error
	// Progress, if set, is told about every step.
	Progress func(Event)
	// ID tells this session's cells from any other's: it begins every
	// cell's scope (NewID makes one).
	ID string
	// Script is the script workload's spec (script.Spec.Encode), sent with
	// every request of the workload "Script"; empty when there is none.
	Script string
	// PassStart, if set, is called before the first step of every pass
	// (Step.Pass) that has one.
	PassStart func(pass int)

	// Journal, if set, receives every slice the runners measure, before it
	// counts (a session stops when it fails): what a resumed session
	// replays.
	Journal func(SliceKey, Slice) error
	// Replay holds slices measured by an earlier session with the same
	// schedule: they are taken as measured, and their runners not asked.
	Replay map[SliceKey]Slice

	conns  map[string]launcher.Conn
	scopes map[string]string    // cell name -> scope
	sums   map[SliceKey]*runSum // by cell and run: the slices so far
}

// NewID returns a random session id: six lower-case letters and digits,
// usable in table names on every database.
func NewID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [6]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	// A letter first: an identifier that starts with a digit needs quoting.
	b[0] = alphabet[int(b[0])%26]
	return string(b[:])
}

// ValidID reports whether id has the form NewID gives.
func ValidID(id string) bool {
	if len(id) != 6 || id[0] < 'a' || id[0] > 'z' {
		return false
	}
	for _, r := range id {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// Event reports the progress of a session.
type Event struct {
	Step Step
	// Done and Total count steps, skipped ones included.
	Done, Total int
	// Result is the run's result; nil when it failed or was skipped.
	Result *benchfmt.Result
	// Err is why the cell failed, at the step where it failed.
	Err error
	// Elapsed is the time since the session started.
	Elapsed time.Duration
}

// Outcome is what a session did.
type Outcome struct {
	// Runs is the number of results passed on.
	Runs int
	// Failed maps a failed cell's name to the reason.
	Failed map[string]error
	// Order lists failed cells in the order they failed.
	Order []string
}

// ErrRunsNone marks, in the skips Declarations returns, a target that its
// runner links as the catalogue describes but that runs none of the
// selected workloads: nothing is wrong, there is just nothing for it to do.
var ErrRunsNone = errors.New("none of the selected workloads runs on it, by its runner's declaration (hello)")

// Hello says hello to the runner of group, starting it if needed, and
// returns its declaration of what it implements.
func (s *Session) Hello(ctx context.Context, group string) (runner.Hello, error) {
	reply, err := s.do(ctx, group, runner.Request{Verb: runner.VerbHello})
	if err == nil && reply.Fail != "" {
		err = errors.New(reply.Fail)
	}
	if err != nil {
		return runner.Hello{}, fmt.Errorf("hello to runner %s: %w", group, err)
	}
	h, err := runner.ParseHello(reply.Lines)
	if err != nil {
		return runner.Hello{}, fmt.Errorf("runner %s: %w", group, err)
	}
	return h, nil
}

// Declarations says hello to the runner of every group of ts and returns
// the declarations by group, for Placement.Runner. A target is returned in
// skipped, with the reason, when its runner cannot answer, does not link it,
// or declares capabilities other than the catalogue's (runner.Hello.Check);
// and, with a reason that wraps ErrRunsNone, when it runs none of ws.
func (s *Session) Declarations(ctx context.Context, ws []bench.Workload, ts []targets.Spec) (byGroup map[string]runner.Hello, skipped map[string]error) {
	byGroup, skipped = map[string]runner.Hello{}, map[string]error{}
	failed := map[string]error{}
	for _, t := range ts {
		h, ok := byGroup[t.Group]
		err := failed[t.Group]
		if !ok && err == nil {
			if h, err = s.Hello(ctx, t.Group); err != nil {
				failed[t.Group] = err
			} else {
				byGroup[t.Group] = h
			}
		}
		if err == nil {
			err = h.Check(t)
		}
		if err == nil && !slices.ContainsFunc(ws, Placement{Target: t, Runner: h}.Runs) {
			err = ErrRunsNone
		}
		if err != nil {
			skipped[t.Name] = err
		}
	}
	return byGroup, skipped
}

// Info asks the runner of each target for its configuration lines (module
// and library versions). Targets whose runner cannot answer are returned in
// skipped with the reason.
func (s *Session) Info(ctx context.Context, ts []targets.Spec, where func(targets.Spec) runner.Location) (lines []string, skipped map[string]error) {
	skipped = map[string]error{}
	for _, t := range ts {
		reply, err := s.do(ctx, t.Group, runner.Request{Verb: runner.VerbInfo, Target: t.Name, DB: string(t.DB), Location: where(t), SQLite: s.SQLite})
		if err == nil && reply.Fail != "" {
			err = errors.New(reply.Fail)
		}
		if err != nil {
			skipped[t.Name] = err
			continue
		}
		lines = append(lines, reply.Lines...)
	}
	return lines, skipped
}

// Run runs steps in order. A cell that fails (wrong result, driver error,
// crash, time-out) is reported once and its remaining runs are skipped; the
// other cells go on. Run returns when the steps are done or ctx is
// cancelled; results passed on before that are kept.
func (s *Session) Run(ctx context.Context, steps []Step) (Outcome, error) {
	out := Outcome{Failed: map[string]error{}}
	last := map[string]int{} // cell name -> index of its last step
	for i, st := range steps {
		last[st.Cell.Name()] = i
	}
	start := time.Now()
	for i, st := range steps {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if s.PassStart != nil && (i == 0 || st.Pass != steps[i-1].Pass) {
			s.PassStart(st.Pass)
		}
		name := st.Cell.Name()
		ev := Event{Step: st, Done: i + 1, Total: len(steps)}
		if _, failed := out.Failed[name]; !failed {
			res, err := s.runStep(ctx, st)
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			var je *journalError
			if errors.As(err, &je) {
				return out, err // finished slices could no longer be kept: stop
			}
			if err == nil && res != nil {
				err = s.Result(res)
				if err != nil {
					return out, err // the results file is gone: nothing to go on for
				}
				out.Runs++
				ev.Result = res
			} else if err != nil {
				err = fmt.Errorf("%s: run %d: %w", st.Cell.Target.Name, st.Run, err)
				out.Failed[name] = err
				out.Order = append(out.Order, name)
				ev.Err = err
			}
		}
		if last[name] == i {
			s.closeCell(ctx, st.Cell)
		}
		ev.Elapsed = time.Since(start)
		if s.Progress != nil {
			s.Progress(ev)
		}
	}
	return out, nil
}

// runStep runs one slice of a run. It returns the run's result after its
// last slice, and nil after the others (the runner keeps their sums).
func (s *Session) runStep(ctx context.Context, st Step) (*benchfmt.Result, error) {
	w := st.Cell.Workload
	scale := 1.0
	if s.ScaleOf != nil {
		scale = s.ScaleOf(w)
	}
	total := w.OpsAt(scale)
	if w.Timed {
		total = w.Ops // a bound on a run for a time, whatever the scale
	}
	slices := min(max(st.Slices, 1), total) // every slice times at least one operation
	if st.Slice > slices {
		return nil, nil
	}
	// Slice k times operations [total*(k-1)/slices, total*k/slices).
	n := total*st.Slice/slices - total*(st.Slice-1)/slices
	req := runner.Request{
		Verb: runner.VerbRun, Target: st.Cell.Target.Name, Workload: w.ID(),
		DB: string(st.Cell.Target.DB), Scope: s.Scope(st.Cell), Location: s.Where(st.Cell),
		Name: st.Cell.Name(), N: n, Warmup: s.warmupOf(w, n),
		Run: st.Run, Slice: st.Slice, Slices: slices,
		Scale: scale, SQLite: s.SQLite, CPU: st.Cell.CPU,
	}
	if w.ID() == script.WorkloadName {
		req.Script = s.Script
	}
	req.FreeThread = freeThreadFor(s.TimingThread, st.Cell.Target.DB) && !st.Cell.Target.JVM
	if s.ProfileDir != "" && !st.Cell.Target.JVM {
		req.CPUProfile = filepath.Join(s.ProfileDir, profileName(st.Cell))
	}
	key := SliceKey{Cell: req.Name, Run: st.Run, Slice: st.Slice}
	sl, replayed := s.Replay[key]
	if !replayed {
		reply, err := s.do(ctx, st.Cell.Target.Group, req)
		if err != nil {
			return nil, err
		}
		if reply.Fail != "" {
			return nil, errors.New(reply.Fail)
		}
		if sl, err = parseSlice(reply.Lines, req.Name); err != nil {
			return nil, err
		}
		if want := n; sl.Result.Iters != want && !(w.Timed && sl.Result.Iters <= want) {
			return nil, fmt.Errorf("runner timed %d operations for slice %d of run %d, want %d", sl.Result.Iters, st.Slice, st.Run, want)
		}
		if s.Journal != nil {
			if err := s.Journal(key, sl); err != nil {
				return nil, &journalError{err}
			}
		}
	}
	// The session sums a run's slices; the runner keeps none of them.
	runKey := SliceKey{Cell: req.Name, Run: st.Run}
	if s.sums == nil {
		s.sums = map[SliceKey]*runSum{}
	}
	sum := s.sums[runKey]
	if sum == nil {
		sum = &runSum{}
		s.sums[runKey] = sum
	}
	sum.slices = append(sum.slices, sl)
	if st.Slice < slices {
		return nil, nil
	}
	delete(s.sums, runKey)
	if len(sum.slices) != slices {
		return nil, fmt.Errorf("run %d has %d of its %d slices", st.Run, len(sum.slices), slices)
	}
	res, err := sum.merge(req.Name)
	if err == nil && res.Iters != total && !(w.Timed && res.Iters <= total) {
		err = fmt.Errorf("the run's slices sum to %d operations, want %d", res.Iters, total)
	}
	return res, err
}

// journalError is a slice that could not be journaled: the session stops,
// as when the results file cannot be written.
type journalError struct{ err error }

func (e *journalError) Error() string { return "journal: " + e.err.Error() }
func (e *journalError) Unwrap() error { return e.err }

// parseSlice reads a run reply: its one result line and, if there is one,
// the latency histogram line before it.
func parseSlice(lines []string, name string) (Slice, error) {
	var sl Slice
	rest := lines[:0:0]
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, runner.LatencyKey+": "); ok {
			sl.Latency = v
			continue
		}
		rest = append(rest, l)
	}
	res, err := parseResult(rest, name)
	sl.Result = res
	return sl, err
}

// parseResult reads the one result line of a run reply.
func parseResult(lines []string, name string) (*benchfmt.Result, error) {
	r := benchfmt.NewReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), "runner")
	var res *benchfmt.Result
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			if res != nil {
				return nil, fmt.Errorf("runner sent more than one result")
			}
			res = rec.Clone()
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("runner sent a malformed result: %v", rec)
		}
	}
	if res == nil {
		return nil, fmt.Errorf("runner sent no result")
	}
	if got := res.Name.String(); got != name {
		return nil, fmt.Errorf("runner answered for %q, want %q", got, name)
	}
	res.Config = nil
	return res, nil
}

func (s *Session) closeCell(ctx context.Context, c Cell) {
	conn, ok := s.conns[c.Target.Group]
	if !ok {
		return
	}
	req := runner.Request{Verb: runner.VerbClose, Target: c.Target.Name, Scope: s.Scope(c)}
	if _, err := conn.Do(ctx, req, s.timeout()); err != nil {
		s.drop(c.Target.Group)
	}
}

// Scope returns the cell's short id: the session's ID, "c", and the cell's
// number in the session. It names the cell in the runner and its tables in
// the database, so no two sessions' cells (on one shared database, say)
// ever name the same table.
func (s *Session) Scope(c Cell) string {
	if s.scopes == nil {
		s.scopes = map[string]string{}
	}
	name := c.Name()
	id, ok := s.scopes[name]
	if !ok {
		id = s.ID + "c" + strconv.FormatInt(int64(len(s.scopes)), 36)
		s.scopes[name] = id
	}
	return id
}

// do sends req to the runner of group, starting it if needed. A runner that
// errs is gone and is dropped.
func (s *Session) do(ctx context.Context, group string, req runner.Request) (runner.Reply, error) {
	if s.conns == nil {
		s.conns = map[string]launcher.Conn{}
	}
	conn, ok := s.conns[group]
	if !ok {
		var err error
		if conn, err = s.Dial(ctx, group); err != nil {
			return runner.Reply{}, err
		}
		s.conns[group] = conn
	}
	reply, err := conn.Do(ctx, req, s.timeout())
	if err != nil {
		s.drop(group)
	}
	return reply, err
}

func (s *Session) timeout() time.Duration {
	if s.Timeout <= 0 {
		return 10 * time.Minute
	}
	return s.Timeout
}

func (s *Session) drop(group string) {
	if c, ok := s.conns[group]; ok {
		c.Close()
		delete(s.conns, group)
	}
}

// Close ends every runner the session started.
func (s *Session) Close() {
	for g := range s.conns {
		s.drop(g)
	}
}

// profileName is the file name of a cell's CPU profile: the target, the
// workload's ID and the transport, with only letters, digits, '-', '_'
// and '.' ("pgx-native-SimpleQuery-tcp.pprof").
func profileName(c Cell) string {
	name := c.Target.Name + "-" + c.Workload.ID()
	if c.Net != "" {
		name += "-" + c.Net
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '-'
	}, name) + ".pprof"
}

// warmupOf returns the untimed operations before a run of n operations of
// w: none for a workload whose study had no warm-up, unless WarmupAll.
func (s *Session) warmupOf(w bench.Workload, n int) int {
	if w.Timed || w.NoWarmup && !s.WarmupAll {
		return 0
	}
	return int(float64(n) * s.Warmup)
}

// freeThreadFor reports whether a Go cell on db runs its timing goroutine
// free under the session's --timing-thread mode: "locked" none, "free"
// all, "auto" (or unset) all but SQLite's, whose cells wait on no socket
// (locking adds a thread hand-over to every reply from a socket).
func freeThreadFor(mode string, db bench.DB) bool {
	switch mode {
	case "locked":
		return false
	case "free":
		return true
	}
	return db != bench.SQLite
}
