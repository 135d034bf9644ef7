package runner

import (
	"bytes"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/proccpu"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

// Units of the decomposition of a run's time per operation (see the
// protocol's run request): the timing thread's time on a CPU, in a run
// queue and blocked, which add up to ns/op; and, in parallel with it, the
// rest of the runner's CPU and the server's CPU.
const (
	OnCPUUnit         = "oncpu-ns/op"
	RunQueueUnit      = "runq-ns/op"
	BlockedUnit       = "blocked-ns/op"
	BackgroundCPUUnit = "bg-cpu-ns/op"
	ServerCPUUnit     = "server-cpu-ns/op"
)

// probe reads what a run request asks for around the timed region: the
// server's CPU (when the request names its process) and a CPU profile
// (when it names a file); and, for every run, the noise around it
// (noise.go). Errors are kept, not returned: a probe that
// cannot read leaves its unit out, the run stands.
type probe struct {
	server     proccpu.Tree
	cpu0, cpu1 time.Duration
	serverErr  error
	profile    bytes.Buffer
	profiling  bool
	profileErr error
	noise      *noiseProbe
}

func newProbe(req protocol.Request) *probe {
	p := &probe{server: proccpu.Tree{Root: req.ServerPID}, noise: newNoiseProbe(!req.FreeThread)}
	p.profiling = req.CPUProfile != ""
	return p
}

// Start reads the server's CPU, starts the profile and reads the noise
// counters, the last right before the timed region.
func (p *probe) Start() {
	defer p.noise.Start()
	if p.server.Root > 0 {
		p.cpu0, p.serverErr = p.server.CPU()
	}
	if p.profiling {
		if err := pprof.StartCPUProfile(&p.profile); err != nil {
			p.profileErr, p.profiling = fmt.Errorf("start CPU profile: %w", err), false
		}
	}
}

// Stop reads the noise counters again, stops the profile and reads the
// server's CPU again.
func (p *probe) Stop() {
	p.noise.Stop()
	if p.profiling {
		pprof.StopCPUProfile()
	}
	if p.server.Root > 0 && p.serverErr == nil {
		p.cpu1, p.serverErr = p.server.CPU()
	}
}

// record puts the server's CPU and the noise units into s.
func (p *probe) record(s *bench.Sample) {
	p.noise.record(s)
	if p.server.Root > 0 && p.serverErr == nil {
		s.ServerCPU, s.ServerCPUKnown = p.cpu1-p.cpu0, true
	}
}

// saveProfile merges the run's profile into file.
func (p *probe) saveProfile(file string) error {
	if p.profileErr != nil {
		return p.profileErr
	}
	if !p.profiling {
		return nil
	}
	return mergeProfile(file, p.profile.Bytes())
}

// timeShare returns the decomposition units of s: the thread's parts and
// the background CPU when it was divided, the server's CPU when read.
func timeShare(s bench.Sample) []benchfmt.Value {
	var vals []benchfmt.Value
	if onCPU, runQueue, blocked, background, ok := s.PerOp(); ok {
		vals = append(vals,
			benchfmt.Value{Value: onCPU, Unit: OnCPUUnit},
			benchfmt.Value{Value: runQueue, Unit: RunQueueUnit},
			benchfmt.Value{Value: blocked, Unit: BlockedUnit},
			benchfmt.Value{Value: background, Unit: BackgroundCPUUnit})
	}
	if server, ok := s.ServerCPUPerOp(); ok {
		vals = append(vals, benchfmt.Value{Value: server, Unit: ServerCPUUnit})
	}
	return vals
}

// writeFileAtomic writes data to file through a temporary file beside it.
func writeFileAtomic(file string, data []byte) error {
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}
