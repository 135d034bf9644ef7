// Package servers starts throwaway database servers, each private to one
// benchmark run or test: MariaDB and PostgreSQL from the distribution's own
// binaries, and, when named (Kind), TiDB (tidb-server built from its Go
// module on first use), a three-node MariaDB Galera cluster and a
// PostgreSQL primary with a synchronous standby (postgres-sync).
//
// Every instance lives in its own temporary directory (data, unix socket,
// logs, pid file), listens only on 127.0.0.1 on a free port and on a unix
// socket inside that directory, and gets a database "bench" owned by a user
// "bench" with a random password. Start returns when that user can connect;
// Stop kills the server (every node of a cluster) and removes the
// directory. The directory holds a marker naming the process that started
// the server, so that Sweep can clean up after a process that died without
// stopping its servers.
//
// When the calling process runs as root the MariaDB and PostgreSQL
// processes run as the "mysql" and "postgres" system users (initdb refuses
// root); otherwise, and for TiDB, they run as the calling user.
package servers

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Options says what server Start should run and how.
type Options struct {
	// Kind is the server product to start.
	Kind Kind
	// Profile is the configuration profile; "" means ProfileDurable (for a
	// kind that is Profiled; the others have none).
	Profile Profile
	// Parent is the directory that receives the server's private temporary
	// directory; "" means os.TempDir(). When running as root it must be
	// traversable by the server's system user.
	Parent string
	// Log receives one-line progress messages; nil discards them.
	Log io.Writer
	// Detach makes the server outlive this process: it gets its own session
	// and its output goes to log files. Stop it later, from any process, with
	// a Server loaded by LoadStates.
	Detach bool
	// CacheBytes sizes the memory-scaled settings of ProfileSeed
	// (innodb_buffer_pool_size, shared_buffers); 0 means 25% of MemTotal.
	// The other profiles ignore it.
	CacheBytes int64
	// TemplateDir caches one freshly initialized MariaDB data directory per
	// server build, which later starts copy instead of running
	// mariadb-install-db (1.5 s down to 0.3 s here; the bench user and
	// password are still created per instance). PostgreSQL does not use it:
	// initdb is as quick as a copy. "" means DefaultTemplateDir().
	TemplateDir string
	// NoTemplates turns the template cache off: every start initializes.
	NoTemplates bool
	// TLS gives the server a self-signed certificate (generated in its
	// directory at start; Server.TLSCert) and turns TLS on: MariaDB's
	// ssl_cert/ssl_key, PostgreSQL's ssl=on. Plain connections stay allowed.
	TLS bool
}

// Server describes a running server. It is JSON-serializable so that a
// later invocation can find and stop a detached server (see SaveState).
type Server struct {
	// Kind and Profile are what the server was started as.
	Kind    Kind    `json:"kind"`
	Profile Profile `json:"profile"`
	// Version is read back from the server (SELECT VERSION() for MariaDB,
	// SHOW server_version for PostgreSQL).
	Version string `json:"version"`
	// Host is always "127.0.0.1"; Port is the TCP port.
	Host string `json:"host"`
	Port int    `json:"port"`
	// Socket is the path of the unix socket file.
	Socket string `json:"socket"`
	// User, Password and Database are the credentials for benchmarks.
	User     string `json:"user"`
	Password string `json:"password"`
	Database string `json:"database"`
	// Dir is the private temporary directory holding data, socket, logs and
	// pid file; Stop removes it.
	Dir string `json:"dir"`
	// PID is the server's (PostgreSQL: the postmaster's) process id; it is
	// also its process group id.
	PID int `json:"pid"`
	// Detached reports whether the server was started with Options.Detach.
	Detached bool `json:"detached"`
	// Vars holds the settings in force, read back from the server after
	// start, keyed by the server's own variable names.
	Vars map[string]string `json:"vars"`
	// Seed is, for a MariaDB server of ProfileSeed, each option of the
	// seed server.cnf: requested, read back, or why not taken.
	Seed []SeedSetting `json:"seed,omitempty"`
	// Ready is the time from the Start call until the bench user could
	// connect.
	Ready time.Duration `json:"ready"`
	// Started is when the server became ready.
	Started time.Time `json:"started"`
	// Nodes are, for a cluster kind (Kind.Clustered), its server
	// processes, the entry point first (Galera's node1, the PostgreSQL
	// primary), each a Server of the base kind with its own directory
	// Dir/data/<Node>, ports and PID; Host, Port, Socket and PID above are
	// the first node's, so that clients connect to it.
	Nodes []*Server `json:"nodes,omitempty"`
	// Node names a cluster's node ("node1", "primary", "standby").
	Node string `json:"node,omitempty"`
	// Topology says, for a cluster, how its nodes are arranged and
	// replicate, in one line for the results file.
	Topology string `json:"topology,omitempty"`
	// TLSCert, for a server started with Options.TLS, is the path of its
	// self-signed certificate (PEM), the CA its clients verify it against.
	TLSCert string `json:"tls_cert,omitempty"`

	proc *child // set only in the process that started the server
}

// Start creates, starts and bootstraps a private server. On failure, or when
// ctx is cancelled before it returns, whatever it started is killed and its
// directory removed. Cancelling ctx after Start has returned does not affect
// the server.
func Start(ctx context.Context, opt Options) (*Server, error) {
	t0 := time.Now()
	var err error
	if opt.Kind, err = ParseKind(string(opt.Kind)); err != nil {
		return nil, err
	}
	if opt.Profile, err = ParseProfile(string(opt.Profile)); err != nil {
		return nil, err
	}
	if !opt.Kind.Profiled() {
		opt.Profile = "" // it runs on its own defaults
	}
	eng, err := newEngine(opt.Kind)
	if err != nil {
		return nil, err
	}
	acct, err := serverAccount(opt.Kind)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", opt.Kind, err)
	}
	pw, err := randomPassword(24)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", opt.Kind, err)
	}
	dir, err := makeDir(opt.Parent, acct)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", opt.Kind, err)
	}
	if err := writeOwner(dir, opt.Kind, opt.Detach); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s: %w", opt.Kind, err)
	}
	s := &Server{
		Kind:     opt.Kind,
		Profile:  opt.Profile,
		Host:     "127.0.0.1",
		User:     "bench",
		Password: pw,
		Database: "bench",
		Dir:      dir,
		Detached: opt.Detach,
	}
	r := &run{opt: opt, srv: s, acct: acct, eng: eng}
	start := r.start
	if opt.Kind.Clustered() {
		start = r.startCluster
	}
	if err := start(ctx); err != nil {
		if stopErr := s.Stop(); stopErr != nil {
			err = fmt.Errorf("%w (clean-up also failed: %v)", err, stopErr)
		}
		return nil, fmt.Errorf("start %s: %w", opt.Kind, err)
	}
	s.Started = time.Now()
	s.Ready = s.Started.Sub(t0)
	r.logf("%s %s ready in %v on 127.0.0.1:%d and %s (pid %d)",
		s.Kind, s.Version, s.Ready.Round(time.Millisecond), s.Port, s.Socket, s.PID)
	return s, nil
}

// run carries the state of one Start call.
type run struct {
	opt  Options
	srv  *Server
	acct *account
	eng  engine
	// node is set for the start of one node of a cluster.
	node *nodePlan
}

func (r *run) logf(format string, args ...any) {
	if r.opt.Log != nil {
		fmt.Fprintf(r.opt.Log, format+"\n", args...)
	}
}

// maxBindAttempts bounds the retries when the picked port is taken between
// picking it and the server binding it.
const maxBindAttempts = 5

// start initializes the data directory, launches the server, waits until it
// accepts the superuser, then creates the bench user and reads the settings.
func (r *run) start(ctx context.Context) error {
	s := r.srv
	data := filepath.Join(s.Dir, "data")
	if r.node != nil && r.node.prepare != nil {
		if err := r.node.prepare(ctx, r); err != nil {
			return err
		}
	} else if !r.restoreTemplate(data) {
		r.logf("%s: initializing %s", s.Kind, data)
		if err := r.eng.initialize(ctx, r); err != nil {
			return err
		}
		r.saveTemplate(data)
	}
	if err := r.eng.configure(ctx, r); err != nil {
		return err
	}
	if r.opt.TLS {
		var err error
		if s.TLSCert, err = writeCert(s.Dir, r.acct); err != nil {
			return err
		}
	}
	var adm admin
	for attempt := 1; ; attempt++ {
		port, err := freePort()
		if err != nil {
			return err
		}
		s.Port, s.Socket = port, r.eng.socket(s.Dir, port)
		mark := markLogs(r.eng.logs(s.Dir))
		path, args := r.eng.command(r)
		if r.node != nil && r.node.args != nil {
			args = append(args, r.node.args(port)...)
		}
		r.logf("%s: starting %s on 127.0.0.1:%d", s.Kind, path, port)
		c, err := launch(r, path, args)
		if err != nil {
			return err
		}
		s.PID, s.proc = c.pid, c
		adm, err = r.waitReady(ctx, c, mark)
		if err == nil {
			break
		}
		if attempt < maxBindAttempts && mark.contains("Address already in use") {
			r.logf("%s: port %d was taken, retrying on another", s.Kind, port)
			continue
		}
		return err
	}
	defer adm.close()
	if r.node != nil && r.node.ready != nil {
		if err := pollUntil(ctx, readyTimeout, "ready for clients", func(ctx context.Context) error {
			return r.node.ready(ctx, s)
		}); err != nil {
			return err
		}
	}
	// A joining node's users and database come with its data from the
	// cluster.
	if r.node == nil || !r.node.joiner {
		if err := adm.bootstrap(ctx, s); err != nil {
			return scrub(fmt.Errorf("create bench user and database: %w", err), s.Password)
		}
	}
	if err := adm.readBack(ctx, s); err != nil {
		return fmt.Errorf("read server settings: %w", err)
	}
	if err := r.eng.userPing(ctx, s); err != nil {
		return scrub(fmt.Errorf("bench user cannot connect over tcp: %w", err), s.Password)
	}
	return nil
}

// readyTimeout bounds the wait for a launched server to accept connections.
const readyTimeout = 60 * time.Second

// waitReady polls the server's socket until the superuser can connect, the
// process exits, ctx ends or readyTimeout passes.
func (r *run) waitReady(ctx context.Context, c *child, mark logMark) (admin, error) {
	deadline := time.Now().Add(readyTimeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		adm, err := r.eng.connectAdmin(ctx, r.srv)
		if err == nil {
			return adm, nil
		}
		select {
		case <-c.done:
			return nil, fmt.Errorf("server exited during start-up: %s", mark.lastLine(r.srv.Password))
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("server not ready after %v: %s", readyTimeout,
				firstNonEmpty(mark.lastLine(r.srv.Password), scrub(err, r.srv.Password).Error()))
		}
	}
}

// Alive reports whether the server process is still running; for a
// cluster, whether every node's is.
func (s *Server) Alive() bool {
	if s == nil || s.PID <= 0 {
		return false
	}
	if len(s.Nodes) > 0 {
		for _, n := range s.Nodes {
			if !n.Alive() {
				return false
			}
		}
		return true
	}
	if s.proc != nil {
		return !s.proc.exited()
	}
	return processRunning(s.PID) && ownsProcess(s.PID, s.Dir)
}
