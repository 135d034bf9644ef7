package runner

import (
	"bytes"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/procs"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/unit"
)

// probe reads what a run request asks for around the timed region: the
// server's CPU (when the request names its process) and a CPU profile
// (when it names a file); and, for every run, the noise around it
// (noise.go). Errors are kept, not returned: a probe that
// cannot read leaves its unit out, the run stands.
type probe struct {
	server     procs.Tree
	cpu0, cpu1 time.Duration
	serverErr  error
	profile    bytes.Buffer
	profiling  bool
	profileErr error
	noise      *noiseProbe
}

func newProbe(req protocol.Request) *probe {
	p := &probe{server: procs.Tree{Root: req.ServerPID}, noise: newNoiseProbe(!req.FreeThread)}
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
			benchfmt.Value{Value: onCPU, Unit: unit.OnCPU},
			benchfmt.Value{Value: runQueue, Unit: unit.RunQueue},
			benchfmt.Value{Value: blocked, Unit: unit.Blocked},
			benchfmt.Value{Value: background, Unit: unit.BackgroundCPU})
	}
	if server, ok := s.ServerCPUPerOp(); ok {
		vals = append(vals, benchfmt.Value{Value: server, Unit: unit.ServerCPU})
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
