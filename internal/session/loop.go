package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/drift"
	"github.com/sqlbench/sqlbench/internal/envinfo"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/progress"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/wake"
	"github.com/sqlbench/sqlbench/targets"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// loop runs the schedule: every step journaled, every run written to the
// results file as it finishes, the machine's drift and wake-ups probed at
// every pass, the progress shown; it records in the Outcome what happened.
func (s *Session) loop(ctx context.Context) (err error) {
	cfg, out := s.cfg, s.out
	s.steps = s.schedule()
	runs := map[SliceKey]bool{}
	for _, st := range s.steps {
		runs[SliceKey{Cell: st.Cell.Name(), Run: st.Run}] = true
	}
	if err := s.openJournal(s.plannedRuns(len(runs))); err != nil {
		return err
	}
	out.Journal = s.journal.Name()
	defer func() {
		s.journal.Close()
		if err == nil {
			os.Remove(s.journal.Name()) // finished: the results file has it all
			out.Journal = ""
		}
	}()
	out.Scheduled = true
	s.display = progress.New(s.env.Log, len(s.steps), cfg.Count, s.env.LogTTY)
	s.machine, s.wakes = passProbes(cfg, s.placement.Runner)
	cpuBefore, cpuErr := envinfo.ReadCPUTimes()
	err = s.runSchedule(ctx)
	s.display.Finish()
	s.closeRunners()
	// Session facts: comment lines the results file gets on Close.
	for _, f := range s.wakes.Facts() {
		s.results.SetConfig(f[0], f[1])
	}
	if k, v, ok := s.machine.Fact(); ok {
		s.results.SetConfig(k, v)
	}
	if s.wakes.Passes() > 0 {
		rd := s.wakes.Session()
		out.Wake, out.WakePasses = &rd, s.wakes.Passes()
	}
	if cpuAfter, e := envinfo.ReadCPUTimes(); e == nil && cpuErr == nil {
		out.Steal, out.StealKnown = cpuAfter.StealSince(cpuBefore), true
	}
	if out.Runs > 0 {
		out.CPUShort = cpuShortfall(s.p, s.placement)
	}
	if f, e := s.machine.Floor(); e == nil {
		out.Drift, out.DriftPinned = &f, len(s.placement.Runner) > 0
	}
	return err
}

// passProbes returns the recorders of the machine's probes before each
// pass of a session of cfg whose runners run on runner: the drift loop,
// and the wake-up round trips. A smoke session's (Config.Smoke) are
// SmokeProbeShare times shorter, as its slices are.
func passProbes(cfg *Config, runner []int) (*drift.Recorder, *wake.Recorder) {
	share := 1
	if cfg.Smoke {
		share = SmokeProbeShare
	}
	own, partner := wake.CrossCPU()
	return &drift.Recorder{Probe: drift.Probe{CPUs: runner, Work: drift.DefaultWork / share}, Count: cfg.Count},
		&wake.Recorder{Probe: wake.Probe{CPUs: own, PartnerCPUs: partner, Trips: wake.DefaultTrips / share},
			Count: cfg.Count}
}

// runSteps runs steps in order. A cell that fails (wrong result, driver
// error, crash, time-out) is recorded once and its remaining runs are
// skipped; the other cells go on. It returns when the steps are done or
// ctx is cancelled; results written before that are kept.
func (s *Session) runSteps(ctx context.Context, steps []Step) error {
	if s.failed == nil {
		s.failed = map[string]error{}
	}
	last := map[string]int{} // cell name -> index of its last step
	for i, st := range steps {
		last[st.Cell.Name()] = i
	}
	start := time.Now()
	for i, st := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i == 0 || st.Pass != steps[i-1].Pass {
			s.passStart(st.Pass)
		}
		name := st.Cell.Name()
		ev := progress.Event{Cell: name, Label: st.Cell.Label(), Workload: st.Cell.Workload.Name,
			Target: st.Cell.Target.Name,
			Run:    st.Run, Slice: st.Slice, Slices: st.Slices, Done: i + 1, Total: len(steps)}
		if _, failed := s.failed[name]; !failed {
			began := time.Now()
			res, err := s.runStep(ctx, st)
			s.spend(name, time.Since(began))
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var je *journalError
			if errors.As(err, &je) {
				return err // finished slices could no longer be kept: stop
			}
			if err == nil && res != nil {
				if err := s.record(res, st.Cell.Target.Name); err != nil {
					return err // the results file is gone: nothing to go on for
				}
				ev.Finished = true
			} else if err != nil {
				err = fmt.Errorf("%s: run %d: %w", st.Cell.Target.Name, st.Run, err)
				s.failed[name] = err
				s.out.Failed = append(s.out.Failed, report.Failure{Name: name, Reason: oneLine(err.Error())})
				ev.Err = err
			}
		}
		if last[name] == i {
			s.closeCell(ctx, st.Cell)
		}
		ev.Elapsed = time.Since(start)
		if s.display != nil {
			s.display.Event(ev)
		}
	}
	return nil
}

// passStart probes the machine's drift and wake-ups at the start of a pass.
func (s *Session) passStart(pass int) {
	if s.machine != nil {
		s.machine.Pass(pass)
	}
	if s.wakes != nil {
		s.wakes.Pass(pass)
	}
}

// record writes a finished run of a cell of target to the results file
// (named by target there: benchfile.WriteTarget) and keeps it.
func (s *Session) record(res *benchfmt.Result, target string) error {
	if err := s.results.WriteTarget(res, target); err != nil {
		return err
	}
	s.out.Done = append(s.out.Done, res)
	s.out.Runs++
	return nil
}

// sliceStart is where slice k (1-based; slices+1 for the end) of a run of
// total operations in slices begins: total*(k-1)/slices, rounded down to a
// multiple of period when it is above 1 (every slice then begins a pass;
// slices is at most total/period, so none is empty).
func sliceStart(total, slices, period, k int) int {
	if k > slices {
		return total
	}
	b := total * (k - 1) / slices
	if period > 1 {
		b -= b % period
	}
	return b
}

// runStep runs one slice of a run. It returns the run's result after its
// last slice, and nil after the others (the runner keeps their sums).
func (s *Session) runStep(ctx context.Context, st Step) (*benchfmt.Result, error) {
	w := st.Cell.Workload
	scale := s.cfg.ScaleOf(w)
	total := w.OpsAt(scale)
	if w.Timed {
		total = w.Ops // a bound on a run for a time, whatever the scale
	}
	slices := min(max(st.Slices, 1), total) // every slice times at least one operation
	if w.Period > 1 {
		slices = min(slices, max(total/w.Period, 1)) // and at least one whole pass
	}
	if st.Slice > slices {
		return nil, nil
	}
	n := sliceStart(total, slices, w.Period, st.Slice+1) - sliceStart(total, slices, w.Period, st.Slice)
	req := protocol.Request{
		Verb: protocol.VerbRun, Target: st.Cell.Target.Opener(), Workload: w.ID(),
		DB: string(st.Cell.Target.DB), Scope: s.scope(st.Cell),
		Location: s.dbs.location(st.Cell.Target, st.Cell.Net, st.Cell.FileName()),
		Name:     st.Cell.Name(), N: n, Warmup: int(float64(n) * s.cfg.WarmupOf(w)),
		Run: st.Run, Slice: st.Slice, Slices: slices,
		Scale: scale, SQLite: s.cfg.SQLite, CPU: st.Cell.CPU, Spin: st.Cell.Target.Spin,
		Rate: s.cfg.Rate, LatencyLimit: s.cfg.LatencyLimit, Progress: s.cfg.Progress,
	}
	if w.ID() == script.WorkloadName {
		req.Script = scriptSpec(s.cfg)
	}
	req.FreeThread = freeThreadFor(s.cfg.TimingThread, st.Cell.Target, w.Family) && !st.Cell.Target.JVM
	req.NoPreceding = s.cfg.NoPreceding
	if s.cfg.CPUProfile != "" && !st.Cell.Target.JVM {
		req.CPUProfile = filepath.Join(s.cfg.CPUProfile, profileName(st.Cell))
	}
	key := SliceKey{Cell: req.Name, Run: st.Run, Slice: st.Slice}
	sl, replayed := s.replay[key]
	if !replayed {
		reply, err := s.doLinked(ctx, st.Cell.Target.Group, req)
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
			return nil, fmt.Errorf("runner timed %d operations for slice %d of run %d, want %d", sl.Result.Iters,
				st.Slice, st.Run, want)
		}
		if err := s.journalSlice(key, sl); err != nil {
			return nil, &journalError{err}
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
	if err == nil {
		s.recordProgress(req.Name, sum.slices)
	}
	return res, err
}

// recordProgress records an open-loop run's time series (run --progress)
// in the results file: one session fact, series-K for the run's K-th
// result line of the session, written before that line, holding the
// run's name, a colon, and the intervals of its slices in order,
// separated by " | ", each as the runner wrote it without the name
// ("NAME: t=1s ops/s=… p50=… p99=… max=… lag=… late=… skipped=… | t=2s …";
// t counts from the start of its slice).
func (s *Session) recordProgress(name string, slices []Slice) {
	var ivs []string
	for _, sl := range slices {
		for _, iv := range sl.Progress {
			ivs = append(ivs, strings.TrimPrefix(iv, name+" "))
		}
	}
	if len(ivs) == 0 || s.results == nil {
		return
	}
	s.results.SetConfig(fmt.Sprintf("%s-%d", progressFact, s.out.Runs+1), name+": "+strings.Join(ivs, " | "))
}

// progressFact begins the key of the session fact of an open-loop run's
// time series (recordProgress).
const progressFact = "series"

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
		if v, ok := strings.CutPrefix(l, protocol.LatencyKey+": "); ok {
			sl.Latency = v
			continue
		}
		if v, ok := strings.CutPrefix(l, protocol.ProgressKey+": "); ok {
			sl.Progress = append(sl.Progress, v)
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
	req := protocol.Request{Verb: protocol.VerbClose, Target: c.Target.Opener(), Scope: s.scope(c)}
	if _, err := conn.Do(ctx, req, s.timeout()); err != nil {
		s.drop(c.Target.Group)
	}
}

// scope returns the cell's short id: the session's ID, "c", and the cell's
// number in the session. It names the cell in the runner and its tables in
// the database, so no two sessions' cells (on one shared database, say)
// ever name the same table.
func (s *Session) scope(c Cell) string {
	if s.scopes == nil {
		s.scopes = map[string]string{}
	}
	name := c.Name()
	id, ok := s.scopes[name]
	if !ok {
		id = s.id + "c" + strconv.FormatInt(int64(len(s.scopes)), 36)
		s.scopes[name] = id
	}
	return id
}

// do sends req to the runner of group, starting it if needed. A runner that
// errs is gone and is dropped.
func (s *Session) do(ctx context.Context, group string, req protocol.Request) (protocol.Reply, error) {
	if s.conns == nil {
		s.conns = map[string]launcher.Conn{}
	}
	conn, ok := s.conns[group]
	if !ok {
		var err error
		if conn, err = s.dial(ctx, group); err != nil {
			return protocol.Reply{}, err
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
	if s.cfg.Timeout <= 0 {
		return DefaultTimeout
	}
	return s.cfg.Timeout
}

func (s *Session) drop(group string) {
	if c, ok := s.conns[group]; ok {
		c.Close()
		delete(s.conns, group)
	}
}

// closeRunners ends every runner the session started.
func (s *Session) closeRunners() {
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

// freeThreadFor reports whether a Go cell of target t in workload family
// runs its timing goroutine free under the session's --timing-thread
// mode: "locked" none, "free" all, "auto" (or unset) all but SQLite's,
// whose cells wait on no socket (locking adds a thread hand-over to every
// reply from a socket), unless the target waits on a process of its own
// over a pipe (targets.Spec.Piped: sqinn) or hands its calls to a
// goroutine of its own in that family (targets.Spec.FreeIn).
func freeThreadFor(mode string, t targets.Spec, family string) bool {
	switch mode {
	case "locked":
		return false
	case "free":
		return true
	}
	return t.DB != bench.SQLite || t.Piped || slices.Contains(t.FreeIn, family)
}
