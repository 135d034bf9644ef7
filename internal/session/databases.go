package session

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/dsn"
	"github.com/sqlbench/sqlbench/internal/link"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/targets"
)

// dbSet is the databases of one session: SQLite files in the session's
// temp dir, servers given by DSN, and throwaway servers started for it.
type dbSet struct {
	tmp  string
	byDB map[bench.DB]*database
	// linkLines are the link's config lines (startLink), if any.
	linkLines [][2]string
}

// database is one database of a session.
type database struct {
	// ends are its endpoints by transport, in order of net.
	ends map[string]bench.Endpoint
	net  []string
	// started is the throwaway server the session started, if any.
	started *servers.Server
	config  [][2]string
	// pid is the server's main process on this machine, whose CPU the
	// runners read; 0 when unknown (a remote server).
	pid int
	// link, set for a kind (the transport floor) under a link, makes a
	// proxy for each cell's sink (floorLocation), kept by cell in linked.
	link   *link.Emulator
	linked map[string]protocol.Location
}

// checkDSNs reads and checks every user DSN of the plan before anything
// is created: each parses, is on this machine (unless allowed) and
// answers. Any problem is an InputError.
func checkDSNs(p *Plan, allowRemote bool) (map[bench.DB]bench.Endpoint, error) {
	given := map[bench.DB]bench.Endpoint{}
	for db, s := range p.DSNs {
		e, err := dsn.Parse(db, s)
		if err == nil {
			err = dsn.CheckLocal(db, e, allowRemote)
		}
		if err == nil {
			err = dsn.Reach(db, e)
		}
		if err != nil {
			return nil, InputError{err.Error()}
		}
		given[db] = e
	}
	return given, nil
}

// openDatabases readies every database of the plan: servers given by DSN
// (already checked) and a throwaway server for each server database
// without one. A server that fails to start costs its targets, not the
// session. The returned set is never nil, so that its servers can be
// stopped whatever happened.
func openDatabases(ctx context.Context, p *Plan, cfg *Config, given map[bench.DB]bench.Endpoint, placement pin.Layout,
	tmp string, log io.Writer) (*dbSet, error) {
	set := &dbSet{tmp: tmp, byDB: map[bench.DB]*database{}}
	for _, db := range p.DBs {
		if !p.Uses(db) {
			continue
		}
		if db == bench.SQLite {
			set.byDB[db] = &database{net: []string{""}}
			continue
		}
		if k, ok := bench.LookupKind(db); ok {
			// Not a database: nothing to start (the transport floor's
			// targets start their own sinks), only the kind's config lines.
			set.byDB[db] = &database{net: []string{""}, config: k.Config}
			continue
		}
		if e, ok := given[db]; ok {
			d := &database{ends: map[string]bench.Endpoint{e.Net: e}, net: []string{e.Net},
				config: [][2]string{{string(db) + "-server", "given by DSN (" + e.Net + ")"}}}
			d.pid = givenServerPID(db, e)
			if srv := servers.Recorded(servers.DefaultStateDir(), e); srv != nil && srv.Kind.Clustered() {
				// A cluster sqlbench server start started: its topology,
				// versions and settings, as a throwaway server's.
				d.config = append(d.config, srv.ConfigLines()...)
			}
			d.config = append(d.config, serverCPULines(db, d.pid, "found by its socket")...)
			set.byDB[db] = d
			if e.TLS != bench.TLSOff {
				skipNoTLS(p, db)
			}
			continue
		}
		kind, err := servers.ParseKind(string(db))
		if err != nil {
			return set, err
		}
		fmt.Fprintf(log, "starting a throwaway %s server (%s profile)...\n", db, cfg.Profile)
		srv, err := servers.Start(ctx, servers.Options{Kind: kind, Profile: cfg.Profile, Log: io.Discard, TLS: cfg.TLS})
		if err != nil {
			if ctx.Err() != nil {
				return set, ctx.Err()
			}
			for _, t := range slices.Clone(p.Runnable) { // skip edits p.Runnable
				if t.DB == db {
					p.skip(t.Name, fmt.Sprintf("the %s server did not start: %v", db, err), true)
				}
			}
			continue
		}
		d := &database{ends: map[string]bench.Endpoint{}, started: srv, pid: srv.PID}
		set.byDB[db] = d
		if err := pin.Process(srv.PID, placement.Server); err != nil {
			return set, err
		}
		for _, n := range cfg.Nets {
			e, err := srv.Endpoint(n)
			if err != nil {
				return set, err
			}
			be := e.Bench()
			if n == "tcp" && srv.TLSCert != "" {
				be.TLS, be.CA = bench.TLSVerify, srv.TLSCert
			}
			d.ends[n] = be
			d.net = append(d.net, n)
		}
		d.config = append(srv.ConfigLines(), [2]string{string(db) + "-server", "throwaway"},
			[2]string{string(db) + "-server-ready", srv.Ready.Round(1e6).String()})
		if srv.TLSCert != "" {
			d.config = append(d.config, tlsLines(ctx, db, srv)...)
			skipNoTLS(p, db)
		}
		d.config = append(d.config, serverCPULines(db, d.pid, "the throwaway server")...)
		fmt.Fprintf(log, "%s %s ready in %s\n", db, srv.Version, srv.Ready.Round(1e6))
	}
	return set, nil
}

// nets returns the transports of db's endpoints ("" for SQLite).
func (s *dbSet) nets(db bench.DB) []string {
	if d, ok := s.byDB[db]; ok {
		return d.net
	}
	return []string{""}
}

// netsFor returns the transports of t's database that t can use ("" for
// SQLite).
func (s *dbSet) netsFor(t targets.Spec) []string {
	var out []string
	for _, n := range s.nets(t.DB) {
		if t.RunsOver(n) {
			out = append(out, n)
		}
	}
	return out
}

// location returns where target t connects over net; file names the SQLite
// file of a cell.
func (s *dbSet) location(t targets.Spec, net, file string) protocol.Location {
	if t.DB == bench.SQLite {
		return protocol.Location{DSN: filepath.Join(s.tmp, file+".db")}
	}
	d, ok := s.byDB[t.DB]
	if !ok {
		return protocol.Location{}
	}
	if d.link != nil {
		if l, ok := d.linked[file]; ok {
			return l
		}
		l := floorLocation(d.link)
		d.linked[file] = l
		return l
	}
	return protocol.Location{Endpoint: d.ends[net], ServerPID: d.pid}
}

// config returns the configuration lines of the servers.
func (s *dbSet) config() [][2]string {
	var out [][2]string
	for _, db := range bench.KnownDBs() {
		if d, ok := s.byDB[db]; ok {
			out = append(out, d.config...)
		}
	}
	return append(out, s.linkLines...)
}

// secrets returns the passwords that must never be printed.
func (s *dbSet) secrets() []string {
	var out []string
	for _, d := range s.byDB {
		for _, e := range d.ends {
			if e.Password != "" {
				out = append(out, e.Password)
			}
		}
	}
	return out
}

// stop stops the servers this session started.
func (s *dbSet) stop(log io.Writer) {
	for db, d := range s.byDB {
		if d.started == nil {
			continue
		}
		if err := d.started.Stop(); err != nil {
			fmt.Fprintf(log, "sqlbench: stop the %s server: %v\n", db, err)
		}
	}
}

// tlsLines are the results file's lines of a server started with TLS:
// that the targets connect over TLS (tcp), and the protocol version and
// cipher the server reports for a connection verified against its
// certificate (pgx or go-sql-driver/mysql; each driver's own is checked by
// the targets' TLS test, docs/tls.md).
func tlsLines(ctx context.Context, db bench.DB, srv *servers.Server) [][2]string {
	k := string(db) + "-tls"
	lines := [][2]string{{k, "on (tcp; self-signed certificate, verified where the driver can)"}}
	version, cipher, err := srv.TLSStatus(ctx)
	if err != nil {
		return append(lines, [2]string{k + "-negotiated", "unread: " + err.Error()})
	}
	return append(lines, [2]string{k + "-version", version}, [2]string{k + "-cipher", cipher})
}

// skipNoTLS skips the targets of db that cannot connect over TLS
// (targets.Spec.NoTLS), when its endpoints ask for it.
func skipNoTLS(p *Plan, db bench.DB) {
	for _, t := range slices.Clone(p.Runnable) { // skip edits p.Runnable
		if t.DB == db && t.NoTLS != "" {
			p.skip(t.Name, "over TLS: "+t.NoTLS, false)
		}
	}
}
