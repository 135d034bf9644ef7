package link

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	toxiclient "github.com/Shopify/toxiproxy/v2/client"

	"github.com/sqlbench/sqlbench/internal/link/proxyd"
	"github.com/sqlbench/sqlbench/internal/procs"
)

// ProxyEnv, set to "1" in a process's environment, makes sqlbench (or a
// test binary whose TestMain calls RunProxyIfAsked) the link's proxy
// process instead of what it would be.
const ProxyEnv = "SQLBENCH_LINK_PROXY"

// ToxiproxyVersion is the version of github.com/Shopify/toxiproxy/v2 that
// go.mod pins (a test holds them equal).
const ToxiproxyVersion = "v2.12.0"

// RunProxyIfAsked runs the proxy process and exits when ProxyEnv is set;
// otherwise it returns at once. A main function (and a TestMain that
// starts links) calls it first.
func RunProxyIfAsked() {
	switch os.Getenv(ProxyEnv) {
	case "1":
		os.Exit(proxyd.Main(os.Stdout, os.Stderr))
	case "echo": // the probe's echo sink (see Measure)
		os.Exit(proxyd.Echo(os.Stdout, os.Stderr))
	}
}

// startTimeout bounds how long the proxy may take to say where its API
// listens.
const startTimeout = 15 * time.Second

// Options configure Start.
type Options struct {
	// Spec is the link.
	Spec Spec
	// Executable runs the proxy (with ProxyEnv set): "" is this process's
	// own executable.
	Executable string
}

// Emulator is a running link emulator: a Toxiproxy process on loopback
// whose proxies each carry the link's toxics on both directions.
type Emulator struct {
	Spec Spec
	// PID is the proxy process.
	PID int
	// API is the address of its HTTP API.
	API string
	// Netem says why the kernel's netem was not used.
	Netem string

	client  *toxiclient.Client
	exe     string
	rec     string // the record Sweep reads (see record.go)
	stopped chan struct{}
	exited  chan error
	mu      sync.Mutex
	n       int                 // proxies made
	delayed []*toxiclient.Proxy // the proxies with the link's delay toxic
	stopErr error
	once    sync.Once
}

// Start starts the proxy process. It dies with this process however this
// process ends (a parent-death signal, and the proxy watches its parent
// too), and is recorded for Sweep in case it does not.
func Start(ctx context.Context, o Options) (*Emulator, error) {
	exe := o.Executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("link: find sqlbench's own executable to run the proxy: %w", err)
		}
	}
	e := &Emulator{Spec: o.Spec, stopped: make(chan struct{}), exited: make(chan error, 1)}
	_, e.Netem = Netem()
	started := make(chan error, 1)
	// The proxy is started from a thread kept for it until Stop: the
	// parent-death signal fires when the thread that started the child
	// ends, and Go ends threads it locked for goroutines that returned.
	e.exe = exe
	go e.own(exe, started)
	var err error
	select {
	case err = <-started:
	case <-ctx.Done():
		// The start is bounded (startTimeout); what it started is stopped.
		if err = <-started; err == nil {
			err = ctx.Err()
			e.Stop()
		}
	}
	if err != nil {
		return nil, err
	}
	e.client = toxiclient.NewClient("http://" + e.API)
	if _, err := e.client.Version(); err != nil {
		e.Stop()
		return nil, fmt.Errorf("link: the proxy's API does not answer: %w", err)
	}
	if e.rec, err = writeRecord(e.PID); err != nil {
		e.Stop()
		return nil, err
	}
	return e, nil
}

// own starts the proxy process from a locked thread, reports on started,
// and keeps the thread until Stop, then ends the process.
func (e *Emulator) own(exe string, started chan<- error) {
	runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
	cmd, addr, err := spawn(exe, "1", proxyd.Ready)
	if err != nil {
		started <- err
		return
	}
	e.PID, e.API = cmd.Process.Pid, addr
	started <- nil
	<-e.stopped
	e.exited <- end(cmd)
}

// spawn starts exe as a helper process (ProxyEnv=mode) that dies with this
// thread, and returns it with the address its ready line (prefix ready)
// gives.
func spawn(exe, mode, ready string) (*exec.Cmd, string, error) {
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), ProxyEnv+"="+mode)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Pdeathsig: syscall.SIGKILL,
		Setpgid:   true, // Ctrl-C at the terminal is sqlbench's to handle, not the proxy's
	}
	var stderr strings.Builder
	cmd.Stderr = &limitWriter{w: &stderr, n: 4096}
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		return nil, "", fmt.Errorf("link: start the proxy process: %w", err)
	}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- line
		io.Copy(io.Discard, out)
	}()
	select {
	case line := <-lines:
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), ready)
		if !ok {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, "", fmt.Errorf("link: the proxy process did not start: %s", oneLine(stderr.String(), line))
		}
		return cmd, addr, nil
	case <-time.After(startTimeout):
		cmd.Process.Kill()
		cmd.Wait()
		return nil, "", fmt.Errorf("link: the proxy process did not say where it listens within %s", startTimeout)
	}
}

// end stops a helper process: SIGTERM, SIGKILL after 5 s.
func end(cmd *exec.Cmd) error {
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		return fmt.Errorf("the proxy process did not stop on SIGTERM within 5s: killed: %w", <-done)
	}
}

// Wrap makes a proxy in front of upstream (host:port on loopback) with the
// link's toxics on both directions, and returns the loopback address to
// connect to instead.
func (e *Emulator) Wrap(upstream string) (string, error) {
	return e.wrap(upstream, e.Spec)
}

// wrap makes a proxy of spec sp in front of upstream; a zero spec makes a
// proxy with no toxic (the proxy's own cost).
func (e *Emulator) wrap(upstream string, sp Spec) (string, error) {
	e.mu.Lock()
	e.n++
	name := fmt.Sprintf("p%d", e.n)
	e.mu.Unlock()
	p, err := e.client.CreateProxy(name, "127.0.0.1:0", upstream)
	if err != nil {
		return "", fmt.Errorf("link: make a proxy to %s: %w", upstream, err)
	}
	delayed := sp.RTT > 0 || len(sp.Steps) > 0
	for _, dir := range []string{"upstream", "downstream"} {
		if delayed {
			attrs := toxiclient.Attributes{"delay_us": sp.OneWay().Microseconds(),
				"jitter_us": (sp.Jitter / 2).Microseconds()}
			if _, err := p.AddToxic("delay_"+dir, proxyd.DelayToxicType, dir, 1, attrs); err != nil {
				return "", fmt.Errorf("link: the delay of proxy %s (%s): %w", name, dir, err)
			}
		}
		if sp.Rate > 0 {
			// Toxiproxy's bandwidth toxic: kilobytes (1000 B) per second.
			attrs := toxiclient.Attributes{"rate": max(sp.Rate/8000, 1)}
			if _, err := p.AddToxic("rate_"+dir, "bandwidth", dir, 1, attrs); err != nil {
				return "", fmt.Errorf("link: the rate of proxy %s (%s): %w", name, dir, err)
			}
		}
	}
	if delayed {
		e.mu.Lock()
		e.delayed = append(e.delayed, p)
		e.mu.Unlock()
	}
	return p.Listen, nil
}

// SetDelay changes the round trip of every proxy of the link (both
// directions, the jitter kept) while connections run through them.
func (e *Emulator) SetDelay(rtt time.Duration) error {
	e.mu.Lock()
	ps := slices.Clone(e.delayed)
	e.mu.Unlock()
	attrs := toxiclient.Attributes{"delay_us": (rtt / 2).Microseconds(),
		"jitter_us": (e.Spec.Jitter / 2).Microseconds()}
	for _, p := range ps {
		for _, dir := range []string{"upstream", "downstream"} {
			if _, err := p.UpdateToxic("delay_"+dir, 1, attrs); err != nil {
				return fmt.Errorf("link: change the delay of proxy %s (%s) to %s: %w", p.Name, dir, rtt, err)
			}
		}
	}
	return nil
}

// Schedule plays the link's steps (Spec.Steps) from now on, each at its
// time, until the returned function is called; that stops the schedule,
// puts the link back to its first round trip, and returns the first error
// the schedule met. Without steps it does nothing.
func (e *Emulator) Schedule() func() error {
	if len(e.Spec.Steps) == 0 {
		return func() error { return nil }
	}
	stop := make(chan struct{})
	type outcome struct {
		err     error
		changed bool // the delay was changed: put it back
	}
	done := make(chan outcome, 1)
	go func() {
		start := time.Now()
		var o outcome
		for _, st := range e.Spec.Steps {
			t := time.NewTimer(time.Until(start.Add(st.At)))
			select {
			case <-stop:
				t.Stop()
				done <- o
				return
			case <-t.C:
			}
			o.changed = true
			if err := e.SetDelay(st.RTT); err != nil && o.err == nil {
				o.err = err
			}
		}
		<-stop
		done <- o
	}()
	return func() error {
		close(stop)
		o := <-done
		if o.changed {
			if err := e.SetDelay(e.Spec.RTT); err != nil && o.err == nil {
				o.err = err
			}
		}
		return o.err
	}
}

// CPU returns the CPU time the proxy process has used so far.
func (e *Emulator) CPU() (time.Duration, error) {
	return procs.Tree{Root: e.PID}.CPU()
}

// Stop ends the proxy process and its proxies, and removes its record.
// It may be called more than once.
func (e *Emulator) Stop() error {
	e.once.Do(func() {
		close(e.stopped)
		if e.PID != 0 {
			if err := <-e.exited; err != nil && !isSignalExit(err) {
				e.stopErr = fmt.Errorf("link: stop the proxy: %w", err)
			}
		}
		if e.rec != "" {
			if err := os.RemoveAll(e.rec); err != nil && e.stopErr == nil {
				e.stopErr = fmt.Errorf("link: remove the proxy's record: %w", err)
			}
		}
	})
	return e.stopErr
}

// isSignalExit reports whether err is the exit of a process ended by a
// signal sqlbench sent it.
func isSignalExit(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && !ee.Exited()
}

func oneLine(parts ...string) string {
	s := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
	if s == "" {
		return "no output"
	}
	return s
}

// limitWriter keeps the first n bytes written to it.
type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if k := min(len(p), l.n); k > 0 {
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
