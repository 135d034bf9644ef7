package servers

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// galeraNodes is the size of a Galera cluster: the smallest that keeps a
// majority (and so keeps taking writes) when one node is lost.
const galeraNodes = 3

// galeraPorts are one node's replication ports, besides its client port.
type galeraPorts struct {
	// gcomm is the group communication port (gmcast.listen_addr).
	gcomm int
	// ist receives incremental state transfers (ist.recv_addr).
	ist int
	// sst receives a full state transfer: the rsync daemon
	// wsrep_sst_rsync starts on a joining node.
	sst int
}

// galeraGCache is the size of each node's write-set cache (galera.cache in
// its data directory), down from Galera's 128M: the cache only lets a
// rejoining node catch up incrementally, which a throwaway cluster does not
// need.
const galeraGCache = "32M"

// galeraArgs returns node i's (0-based) wsrep options: the provider, the
// cluster's address list (every node's group port), its own addresses, the
// rsync state transfer, and the settings Galera requires (row-based binary
// log format, InnoDB, interleaved auto-increment locks).
func galeraArgs(provider string, ports []galeraPorts, i int) []string {
	var peers []string
	for _, p := range ports {
		peers = append(peers, "127.0.0.1:"+strconv.Itoa(p.gcomm))
	}
	me := ports[i]
	return []string{
		"--wsrep-on=ON",
		"--wsrep-provider=" + provider,
		"--wsrep-cluster-name=sqlbench",
		"--wsrep-cluster-address=gcomm://" + strings.Join(peers, ","),
		fmt.Sprintf("--wsrep-node-name=node%d", i+1),
		fmt.Sprintf("--wsrep-node-address=127.0.0.1:%d", me.gcomm),
		fmt.Sprintf(
			"--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:%d;ist.recv_addr=127.0.0.1:%d;gcache.size=%s",
			me.gcomm, me.ist, galeraGCache),
		"--wsrep-sst-method=rsync",
		fmt.Sprintf("--wsrep-sst-receive-address=127.0.0.1:%d", me.sst),
		"--binlog-format=ROW",
		"--default-storage-engine=InnoDB",
		"--innodb-autoinc-lock-mode=2",
	}
}

// startGalera bootstraps node1 as a new cluster (--wsrep-new-cluster) from
// a freshly initialized data directory with the bench user and database,
// then starts node2 and node3 one after the other on empty data
// directories: each joins and receives node1's data by rsync state
// transfer before it accepts clients. It then checks the cluster
// (checkGalera) and returns the settings to record.
func (r *run) startGalera(ctx context.Context, tools *clusterTools) (map[string]string, error) {
	all, err := freePorts(3 * galeraNodes)
	if err != nil {
		return nil, err
	}
	ports := make([]galeraPorts, galeraNodes)
	for i := range ports {
		ports[i] = galeraPorts{gcomm: all[3*i], ist: all[3*i+1], sst: all[3*i+2]}
	}
	for i := range galeraNodes {
		args := galeraArgs(tools.provider, ports, i)
		plan := &nodePlan{args: func(int) []string { return args }, ready: galeraReady}
		if i == 0 {
			plan.args = func(int) []string { return append(slices.Clone(args), "--wsrep-new-cluster") }
		} else {
			plan.joiner = true
			plan.prepare = func(_ context.Context, nr *run) error {
				data := filepath.Join(nr.srv.Dir, "data")
				if err := os.Mkdir(data, 0o700); err != nil {
					return fmt.Errorf("create %s: %w", data, err)
				}
				return nr.acct.chown(data)
			}
		}
		nr, err := r.addNode(fmt.Sprintf("node%d", i+1), plan)
		if err != nil {
			return nil, err
		}
		if err := r.startNode(ctx, nr); err != nil {
			return nil, err
		}
	}
	vars, err := r.checkGalera(ctx)
	if err != nil {
		return nil, err
	}
	var nodes []string
	for _, n := range r.srv.Nodes {
		nodes = append(nodes, fmt.Sprintf("%s :%d", n.Node, n.Port))
	}
	r.srv.Topology = fmt.Sprintf("%d-node Galera cluster on 127.0.0.1 (%s), clients on node1, rsync SST",
		galeraNodes, strings.Join(nodes, ", "))
	return vars, nil
}

// galeraReady returns nil once the node's wsrep_ready status is ON: it is
// part of the primary component and takes queries (before that, MariaDB
// accepts connections and refuses statements with "WSREP has not yet
// prepared node for application use").
func galeraReady(ctx context.Context, s *Server) error {
	db, err := mariadbDB("unix", s.Socket, "root", "", "")
	if err != nil {
		return err
	}
	defer db.Close()
	var n, v string
	if err := db.QueryRowContext(ctx, "SHOW GLOBAL STATUS LIKE 'wsrep_ready'").Scan(&n, &v); err != nil {
		return err
	}
	if v != "ON" {
		return fmt.Errorf("wsrep_ready is %s", v)
	}
	return nil
}

// galeraVarNames are the settings of a Galera node recorded besides a
// MariaDB server's.
func galeraVarNames() []string {
	return []string{"wsrep_on", "wsrep_sst_method", "wsrep_sync_wait", "wsrep_slave_threads",
		"binlog_format", "innodb_autoinc_lock_mode", "wsrep_cluster_name", "wsrep_certify_nonpk"}
}

// checkGalera waits until every node reports a cluster of galeraNodes and
// is synced, writes a row on node1 and reads it on every other node (with
// wsrep_sync_wait, so that the read waits for the write to be applied),
// then returns node1's Galera settings and status.
func (r *run) checkGalera(ctx context.Context) (map[string]string, error) {
	dbs := make([]*sql.DB, len(r.srv.Nodes))
	for i, n := range r.srv.Nodes {
		db, err := mariadbDB("unix", n.Socket, "root", "", "")
		if err != nil {
			return nil, err
		}
		defer db.Close()
		dbs[i] = db
	}
	status := func(ctx context.Context, db *sql.DB, name string) (string, error) {
		var n, v string
		err := db.QueryRowContext(ctx, "SHOW GLOBAL STATUS LIKE "+sqlString(name)).Scan(&n, &v)
		return v, err
	}
	for i, db := range dbs {
		err := pollUntil(ctx, clusterReadyTimeout, "node "+r.srv.Nodes[i].Node+" in a synced cluster of 3",
			func(ctx context.Context) error {
				size, err := status(ctx, db, "wsrep_cluster_size")
				if err != nil {
					return err
				}
				state, err := status(ctx, db, "wsrep_local_state_comment")
				if err != nil {
					return err
				}
				if size != strconv.Itoa(galeraNodes) || state != "Synced" {
					return fmt.Errorf("wsrep_cluster_size %s, state %s", size, state)
				}
				return nil
			})
		if err != nil {
			return nil, err
		}
	}
	token, err := checkToken()
	if err != nil {
		return nil, err
	}
	table := r.srv.Database + ".sqlbench_cluster_check"
	for _, q := range []string{
		"CREATE TABLE " + table + " (id INT PRIMARY KEY, token VARCHAR(64) NOT NULL)",
		"INSERT INTO " + table + " VALUES (1, " + sqlString(token) + ")",
	} {
		if _, err := dbs[0].ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("node1: %s: %w", firstWords(q, 3), err)
		}
	}
	for i, db := range dbs[1:] {
		node := r.srv.Nodes[i+1].Node
		conn, err := db.Conn(ctx)
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", node, err)
		}
		var got string
		_, err = conn.ExecContext(ctx, "SET SESSION wsrep_sync_wait = 1")
		if err == nil {
			err = conn.QueryRowContext(ctx, "SELECT token FROM "+table+" WHERE id = 1").Scan(&got)
		}
		conn.Close()
		if err != nil {
			return nil, fmt.Errorf("node %s: the row written on node1: %w", node, err)
		}
		if got != token {
			return nil, fmt.Errorf("node %s read %q where node1 wrote %q", node, got, token)
		}
	}
	if _, err := dbs[0].ExecContext(ctx, "DROP TABLE "+table); err != nil {
		return nil, fmt.Errorf("node1: drop the check table: %w", err)
	}
	r.logf("%s: a row written on node1 was read on every other node", r.srv.Kind)

	vars := map[string]string{}
	quoted := make([]string, 0, len(galeraVarNames()))
	for _, n := range galeraVarNames() {
		quoted = append(quoted, sqlString(n))
	}
	rows, err := dbs[0].QueryContext(ctx, "SHOW GLOBAL VARIABLES WHERE Variable_name IN ("+strings.Join(quoted, ", ")+
		")")
	if err != nil {
		return nil, fmt.Errorf("node1: SHOW GLOBAL VARIABLES: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var n, v string
		if err := rows.Scan(&n, &v); err != nil {
			return nil, fmt.Errorf("node1: SHOW GLOBAL VARIABLES: %w", err)
		}
		vars[strings.ToLower(n)] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("node1: SHOW GLOBAL VARIABLES: %w", err)
	}
	for _, name := range []string{"wsrep_cluster_size", "wsrep_provider_version", "wsrep_provider_name"} {
		if v, err := status(ctx, dbs[0], name); err == nil {
			vars[name] = v
		}
	}
	return vars, nil
}
