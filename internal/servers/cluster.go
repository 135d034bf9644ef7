package servers

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// A cluster (KindGalera, KindPostgresSync) is several server processes of
// its base kind on this machine, in one server directory: each node has
// its own directory Dir/data/<node> (its data directory, socket, logs and
// pid file, as a single server has in Dir), its own ports on 127.0.0.1,
// and runs as the same account as a single server of the base kind. The
// process-finding, stop and sweep code finds every node's process by
// Dir/data in its command line, as it finds a single server's.

// nodePlan is what starting one node of a cluster changes in a single
// server's start (run.start).
type nodePlan struct {
	// prepare fills the node's data directory instead of initializing it:
	// a node whose data comes from the cluster.
	prepare func(ctx context.Context, r *run) error
	// args are added to the server's command line, given its port.
	args func(port int) []string
	// joiner marks a node whose users and database come with its data
	// from the cluster: it is not bootstrapped.
	joiner bool
	// hba is added to a PostgreSQL node's pg_hba.conf.
	hba string
	// ready, when set, is polled once the node accepts the superuser,
	// until it returns nil: the node is ready for clients.
	ready func(ctx context.Context, s *Server) error
}

// clusterTools are the programs a cluster kind needs beyond its base
// kind's server.
type clusterTools struct {
	// provider is Galera's wsrep provider library (galera-4).
	provider string
	// rsync is the program of Galera's rsync state transfer.
	rsync string
	// basebackup is pg_basebackup, beside the postgres binary.
	basebackup string
}

// galeraProviders are where Debian's galera-4 (and older galera-3)
// install the provider library.
var galeraProviders = []string{"/usr/lib/galera/libgalera_smm.so", "/usr/lib/galera-4/libgalera_smm.so",
	"/usr/lib/libgalera_smm.so", "/usr/lib64/galera-4/libgalera_smm.so", "/usr/lib64/galera/libgalera_smm.so"}

// newCluster finds what a cluster of kind needs beyond its base kind's
// server; the error names the missing program and its package.
func newCluster(kind Kind) (*clusterTools, error) {
	switch kind {
	case KindGalera:
		t := &clusterTools{}
		for _, p := range galeraProviders {
			if _, err := os.Stat(p); err == nil {
				t.provider = p
				break
			}
		}
		if t.provider == "" {
			return nil, errors.New("galera-4 is not installed: libgalera_smm.so not found (apt-get install galera-4)")
		}
		if findProgram([]string{"wsrep_sst_rsync"}, systemBinDirs()) == "" {
			return nil, notInstalled(KindMariaDB, "wsrep_sst_rsync")
		}
		if t.rsync = findProgram([]string{"rsync"}, systemBinDirs()); t.rsync == "" {
			return nil, errors.New(
				"rsync is not installed: rsync not found, Galera's state transfer needs it (apt-get install rsync)")
		}
		return t, nil
	case KindPostgresSync:
		eng, err := findPostgres()
		if err != nil {
			return nil, err
		}
		t := &clusterTools{basebackup: filepath.Join(filepath.Dir(eng.server), "pg_basebackup")}
		if !isExecutable(t.basebackup) {
			return nil, notInstalled(KindPostgres, "pg_basebackup")
		}
		return t, nil
	}
	return nil, fmt.Errorf("%s is not a cluster kind", kind)
}

// clusterReadyTimeout bounds each wait for the nodes to agree (Galera's
// cluster size, the standby's sync state, a row written on one node seen
// on another).
const clusterReadyTimeout = 30 * time.Second

// startCluster starts the nodes of a cluster kind, checks that they
// replicate, and makes the cluster's Server point at its first node.
func (r *run) startCluster(ctx context.Context) error {
	tools, err := newCluster(r.opt.Kind)
	if err != nil {
		return err
	}
	// sun_path holds 108 bytes with the terminating NUL.
	if n := len(filepath.Join(r.srv.Dir, "data", "standby", ".s.PGSQL.65535")); n > 107 {
		return fmt.Errorf("server directory %s is too long for the nodes' unix socket paths", r.srv.Dir)
	}
	data := filepath.Join(r.srv.Dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", data, err)
	}
	if err := r.acct.chown(data); err != nil {
		return err
	}
	var vars map[string]string
	switch r.opt.Kind {
	case KindGalera:
		vars, err = r.startGalera(ctx, tools)
	case KindPostgresSync:
		vars, err = r.startPostgresSync(ctx, tools)
	}
	if err != nil {
		return err
	}
	s, first := r.srv, r.srv.Nodes[0]
	s.Port, s.Socket, s.PID, s.proc = first.Port, first.Socket, first.PID, first.proc
	s.Version, s.Seed = first.Version, first.Seed
	s.Vars = maps.Clone(first.Vars)
	maps.Copy(s.Vars, vars)
	return nil
}

// addNode prepares the start of the cluster's node name, in its own
// directory, and records it in the cluster's Nodes before it starts, so
// that a failed start stops what did start.
func (r *run) addNode(name string, plan *nodePlan) (*run, error) {
	s := r.srv
	dir := filepath.Join(s.Dir, "data", name)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create node directory: %w", err)
	}
	if err := r.acct.chown(dir); err != nil {
		return nil, err
	}
	n := &Server{Kind: s.Kind.Base(), Profile: s.Profile, Host: s.Host, User: s.User,
		Password: s.Password, Database: s.Database, Dir: dir, Detached: s.Detached, Node: name}
	s.Nodes = append(s.Nodes, n)
	opt := r.opt
	opt.Kind = n.Kind
	return &run{opt: opt, srv: n, acct: r.acct, eng: r.eng, node: plan}, nil
}

// startNode starts one node as a single server is started, and logs it.
func (r *run) startNode(ctx context.Context, nr *run) error {
	t0 := time.Now()
	if err := nr.start(ctx); err != nil {
		return fmt.Errorf("node %s: %w", nr.srv.Node, err)
	}
	nr.srv.Started = time.Now()
	nr.srv.Ready = nr.srv.Started.Sub(t0)
	r.logf("%s: node %s ready in %v on 127.0.0.1:%d (pid %d)", r.srv.Kind, nr.srv.Node,
		nr.srv.Ready.Round(time.Millisecond), nr.srv.Port, nr.srv.PID)
	return nil
}

// freePorts returns n distinct TCP ports on 127.0.0.1 that were free a
// moment ago.
func freePorts(n int) ([]int, error) {
	var ports []int
	for attempts := 0; len(ports) < n; attempts++ {
		if attempts > 10*n {
			return nil, errors.New("find free ports on 127.0.0.1: the same ports keep coming back")
		}
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ports, p) {
			ports = append(ports, p)
		}
	}
	return ports, nil
}

// pollUntil calls check until it returns nil, ctx ends or limit passes,
// and returns its last error, prefixed by what, when it never succeeded.
func pollUntil(ctx context.Context, limit time.Duration, what string, check func(context.Context) error) error {
	deadline := time.Now().Add(limit)
	for {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := check(cctx)
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: not after %v: %w", what, limit, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// checkToken is the value a cluster's check writes on one node and reads
// on another: random, so that no earlier row can pass for it.
func checkToken() (string, error) { return randomPassword(16) }
