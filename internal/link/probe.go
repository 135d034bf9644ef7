package link

import (
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"slices"
	"time"

	"github.com/sqlbench/sqlbench/internal/link/proxyd"
)

// Trips is a sample of round trips: its median and 10th and 90th
// percentiles.
type Trips struct {
	N             int
	P10, P50, P90 time.Duration
}

func (t Trips) String() string {
	return fmt.Sprintf("%s (p10 %s, p90 %s)", fmtMicros(t.P50), fmtMicros(t.P10), fmtMicros(t.P90))
}

func fmtMicros(d time.Duration) string {
	return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
}

// Probe is the link's round trip measured before a session: 64-byte
// messages echoed by a sink in a process of its own on loopback (so that
// each round trip wakes processes as a query does), directly, through a
// proxy of the emulator with no toxic (the proxy's own cost), and through
// the link.
type Probe struct {
	Direct, Proxy, Link Trips
}

// probeBytes is the size of a probe's message: a small query's.
const probeBytes = 64

// probeBudget bounds a probe's time per path.
const probeBudget = 3 * time.Second

// Measure times n round trips (after 20 untimed) on each path, within
// probeBudget each.
func (e *Emulator) Measure(ctx context.Context, n int) (Probe, error) {
	up, stop, err := e.echoProcess()
	if err != nil {
		return Probe{}, err
	}
	defer stop()
	var p Probe
	if p.Direct, err = trips(ctx, up, n); err != nil {
		return p, err
	}
	bare, err := e.wrap(up, Spec{})
	if err != nil {
		return p, err
	}
	if p.Proxy, err = trips(ctx, bare, n); err != nil {
		return p, err
	}
	through, err := e.Wrap(up)
	if err != nil {
		return p, err
	}
	p.Link, err = trips(ctx, through, n)
	return p, err
}

// echoProcess starts the probe's echo sink, a process of its own, and
// returns its address and what stops it.
func (e *Emulator) echoProcess() (string, func(), error) {
	started := make(chan error, 1)
	stopped := make(chan struct{})
	var addr string
	go func() {
		runtime.LockOSThread() // the echo's parent-death signal follows this thread
		cmd, a, err := spawn(e.exe, "echo", proxyd.EchoReady)
		addr = a
		started <- err
		if err == nil {
			<-stopped
			end(cmd)
		}
		close(started)
	}()
	if err := <-started; err != nil {
		return "", nil, err
	}
	return addr, func() { close(stopped); <-started }, nil
}

// echo writes back whatever each connection of ln sends, until ln closes.
func echo(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			io.Copy(c, c)
		}()
	}
}

// trips times up to n round trips to the echo sink at addr.
func trips(ctx context.Context, addr string, n int) (Trips, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return Trips{}, fmt.Errorf("link: probe %s: %w", addr, err)
	}
	defer c.Close()
	msg, back := make([]byte, probeBytes), make([]byte, probeBytes)
	deadline := time.Now().Add(probeBudget)
	c.SetDeadline(deadline.Add(5 * time.Second))
	var ds []time.Duration
	for i := 0; i < n+20 && time.Now().Before(deadline) && ctx.Err() == nil; i++ {
		t := time.Now()
		if _, err := c.Write(msg); err != nil {
			return Trips{}, fmt.Errorf("link: probe %s: %w", addr, err)
		}
		if _, err := io.ReadFull(c, back); err != nil {
			return Trips{}, fmt.Errorf("link: probe %s: %w", addr, err)
		}
		if i >= 20 {
			ds = append(ds, time.Since(t))
		}
	}
	if len(ds) == 0 {
		return Trips{}, fmt.Errorf("link: probe %s: no round trip within %s", addr, probeBudget)
	}
	slices.Sort(ds)
	at := func(q float64) time.Duration { return ds[int(q*float64(len(ds)-1))] }
	return Trips{N: len(ds), P10: at(0.1), P50: at(0.5), P90: at(0.9)}, nil
}

// ConfigLines are the results file's lines of the link: link (the
// emulator, its spec, why not netem), link-rtt (the probe), and, once the
// session ends, link-cpu (see CPULine).
func (e *Emulator) ConfigLines(p Probe) [][2]string {
	return [][2]string{
		{"link", fmt.Sprintf("toxiproxy %s (proxy process on 127.0.0.1; %s), %s", ToxiproxyVersion, e.Netem,
			e.Spec.Describe())},
		{"link-rtt",
			fmt.Sprintf("through the link %s; through the proxy alone %s; direct %s; %d B echoed, %d round trips each",
				p.Link, p.Proxy, p.Direct, probeBytes, p.Link.N)},
	}
}

// CPULine is the results file's link-cpu line: the proxy's CPU time over
// the session, counted as neither the client's (the runners') nor the
// server's.
func CPULine(cpu time.Duration) [2]string {
	return [2]string{"link-cpu", fmt.Sprintf("%s in the proxy process over the session, counted in neither the "+
		"runners' nor the server's CPU", cpu.Round(time.Millisecond))}
}
