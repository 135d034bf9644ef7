package session

import (
	"context"
	"fmt"
	"io"
	"net"
	"slices"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/link"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

// probeTrips is how many round trips the link's probe times per path.
const probeTrips = 300

// checkLink refuses a link the session cannot put anywhere (bad input,
// exit 2), and drops the unix socket from the transports of a linked
// session with one line: the link's proxy is TCP only.
func checkLink(cfg *Config, p *Plan, log io.Writer) error {
	if cfg.Link == nil {
		return nil
	}
	networked := slices.ContainsFunc(p.DBs, func(db bench.DB) bool { return db != bench.SQLite && p.Uses(db) })
	if !networked {
		return inputf(
			"--link: nothing to put it in front of: SQLite has no network (use --db mariadb, postgres or loopback)")
	}
	if !slices.Contains(cfg.Nets, "tcp") {
		return inputf("--link: the link's proxy carries TCP only, and --net is unix (use --net tcp)")
	}
	if slices.Contains(cfg.Nets, "unix") {
		cfg.Nets = []string{"tcp"}
		fmt.Fprintln(log,
			"--link: the unix-socket cells are skipped: a unix socket cannot go through the link's proxy (TCP only)")
	}
	return nil
}

// startLink starts the session's link emulator when cfg asks for one,
// puts it in front of every TCP endpoint of dbs (the transport floor's
// sinks get a proxy per cell, see location), and measures its round trip.
// The emulator is nil without a link; Stop it whatever the error.
func startLink(ctx context.Context, cfg *Config, dbs *dbSet, log io.Writer) (*link.Emulator, error) {
	if cfg.Link == nil {
		return nil, nil
	}
	em, err := link.Start(ctx, link.Options{Spec: *cfg.Link})
	if err != nil {
		return nil, err
	}
	for db, d := range dbs.byDB {
		if _, kind := bench.LookupKind(db); kind {
			d.link, d.linked = em, map[string]protocol.Location{}
			continue
		}
		if db == bench.SQLite {
			continue
		}
		e, ok := d.ends["tcp"]
		if !ok {
			return em, inputf("--link: the %s server is reached over a unix socket (its DSN); the link's proxy "+
				"carries TCP only (give a host:port DSN)", db)
		}
		if e.Addr, err = em.Wrap(e.Addr); err != nil {
			return em, err
		}
		d.ends["tcp"] = e
	}
	probe, err := em.Measure(ctx, probeTrips)
	if err != nil {
		return em, err
	}
	dbs.linkLines = em.ConfigLines(probe)
	fmt.Fprintf(log, "link: %s; measured round trip %s (the proxy alone %s, direct %s)\n",
		em.Spec.Describe(), probe.Link, probe.Proxy, probe.Direct)
	return em, nil
}

// linkCPU records the link proxy's CPU over the session in w.
func linkCPU(em *link.Emulator, w *benchfile.Writer) {
	if em == nil {
		return
	}
	if cpu, err := em.CPU(); err == nil {
		kv := link.CPULine(cpu)
		w.SetConfig(kv[0], kv[1])
	}
}

// floorLocation is where a transport-floor cell connects under a link: a
// fresh proxy in front of a loopback port its sink is to listen on (DSN),
// since each cell starts a sink of its own.
func floorLocation(em *link.Emulator) protocol.Location {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return protocol.Location{}
	}
	sink := ln.Addr().String()
	ln.Close() // the runner's sink listens here: the port is free again
	addr, err := em.Wrap(sink)
	if err != nil {
		return protocol.Location{}
	}
	return protocol.Location{DSN: sink, Endpoint: bench.Endpoint{Net: "tcp", Addr: addr}}
}

// doLinked sends a run slice's request with the link's schedule of delays
// (link.Spec.Steps) playing from the moment it is sent until its reply;
// the link is back at its first delay for the next request.
func (s *Session) doLinked(ctx context.Context, group string, req protocol.Request) (protocol.Reply, error) {
	if s.link == nil {
		return s.do(ctx, group, req)
	}
	stop := s.link.Schedule()
	reply, err := s.do(ctx, group, req)
	if serr := stop(); serr != nil && err == nil {
		err = serr
	}
	return reply, err
}
