package servers

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/sqlbench/sqlbench/targets/pgdsn"
)

// standbyName is the standby's application_name, which the primary's
// synchronous_standby_names names.
const standbyName = "sqlbench_standby"

// replicationHBA lets the superuser stream WAL over the primary's socket,
// which only the server's account can reach (pg_basebackup and the
// standby's WAL receiver).
const replicationHBA = "local replication postgres               trust\n"

// startPostgresSync starts the primary (wal_level replica, synchronous
// commit on whatever the profile says, since that is what makes a commit
// wait for the standby), creates the bench user and database on it, takes
// a base backup of it with pg_basebackup for the standby, starts the
// standby streaming from the primary's socket, and only then names it in
// the primary's synchronous_standby_names (earlier, the primary's own
// commits would wait for a standby that is not there). It then checks the
// pair (checkPostgresSync) and returns the settings to record.
func (r *run) startPostgresSync(ctx context.Context, tools *clusterTools) (map[string]string, error) {
	primaryArgs := []string{"-c", "wal_level=replica", "-c", "max_wal_senders=4", "-c", "synchronous_commit=on"}
	primary, err := r.addNode("primary", &nodePlan{
		args: func(int) []string { return primaryArgs },
		hba:  replicationHBA,
	})
	if err != nil {
		return nil, err
	}
	if err := r.startNode(ctx, primary); err != nil {
		return nil, err
	}
	p := primary.srv
	conninfo := fmt.Sprintf("host=%s port=%d user=postgres application_name=%s",
		pgdsn.Quote(p.Dir), p.Port, standbyName)
	standby, err := r.addNode("standby", &nodePlan{
		joiner: true,
		hba:    replicationHBA,
		prepare: func(ctx context.Context, nr *run) error {
			// -R writes standby.signal; its primary_conninfo is replaced
			// on the command line by one naming the standby.
			return runTool(ctx, nr, filepath.Join(nr.srv.Dir, "init.log"), tools.basebackup,
				"-h", p.Dir, "-p", strconv.Itoa(p.Port), "-U", "postgres",
				"-D", filepath.Join(nr.srv.Dir, "data"), "-X", "stream", "-c", "fast", "-R", "--no-sync")
		},
		args: func(int) []string {
			return append(slices.Clone(primaryArgs), "-c", "hot_standby=on", "-c", "primary_conninfo="+conninfo)
		},
	})
	if err != nil {
		return nil, err
	}
	if err := r.startNode(ctx, standby); err != nil {
		return nil, err
	}
	vars, err := r.checkPostgresSync(ctx)
	if err != nil {
		return nil, err
	}
	r.srv.Topology = fmt.Sprintf(
		"PostgreSQL primary :%d with 1 synchronous streaming standby :%d on 127.0.0.1, clients on the primary",
		p.Port, standby.srv.Port)
	return vars, nil
}

// checkPostgresSync names the standby in the primary's
// synchronous_standby_names, waits until pg_stat_replication shows it
// streaming as sync, writes a row on the primary and waits until the
// standby has replayed it, then returns the replication settings.
func (r *run) checkPostgresSync(ctx context.Context) (map[string]string, error) {
	p, sb := r.srv.Nodes[0], r.srv.Nodes[1]
	connect := func(ctx context.Context, n *Server, db string) (*pgx.Conn, error) {
		return pgConnect(ctx, fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable",
			pgdsn.Quote(n.Dir), n.Port, pgdsn.Quote(db)))
	}
	pc, err := connect(ctx, p, r.srv.Database)
	if err != nil {
		return nil, fmt.Errorf("primary: %w", err)
	}
	defer pc.Close(context.Background())
	for _, q := range []string{
		"ALTER SYSTEM SET synchronous_standby_names = '" + standbyName + "'",
		"SELECT pg_reload_conf()",
	} {
		if _, err := pc.Exec(ctx, q); err != nil {
			return nil, fmt.Errorf("primary: %s: %w", firstWords(q, 3), err)
		}
	}
	err = pollUntil(ctx, clusterReadyTimeout, "the standby streaming as synchronous", func(ctx context.Context) error {
		var state, sync string
		err := pc.QueryRow(ctx, "SELECT state, sync_state FROM pg_stat_replication WHERE application_name = $1",
			standbyName).Scan(&state, &sync)
		if err != nil {
			return fmt.Errorf("pg_stat_replication: %w", err)
		}
		if state != "streaming" || sync != "sync" {
			return fmt.Errorf("pg_stat_replication: state %s, sync_state %s", state, sync)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	token, err := checkToken()
	if err != nil {
		return nil, err
	}
	for _, q := range []string{
		"CREATE TABLE sqlbench_cluster_check (id int PRIMARY KEY, token text NOT NULL)",
		"INSERT INTO sqlbench_cluster_check VALUES (1, '" + token + "')",
	} {
		if _, err := pc.Exec(ctx, q); err != nil {
			return nil, fmt.Errorf("primary: %s: %w", firstWords(q, 3), err)
		}
	}
	sc, err := connect(ctx, sb, r.srv.Database)
	if err != nil {
		return nil, fmt.Errorf("standby: %w", err)
	}
	defer sc.Close(context.Background())
	// Synchronous commit waits for the standby to flush the WAL, not to
	// replay it: the row shows up a moment later.
	err = pollUntil(ctx, clusterReadyTimeout, "the standby reading the row written on the primary",
		func(ctx context.Context) error {
			var got string
			if err := sc.QueryRow(ctx, "SELECT token FROM sqlbench_cluster_check WHERE id = 1").Scan(&got); err != nil {
				return err
			}
			if got != token {
				return fmt.Errorf("standby read %q where the primary wrote %q", got, token)
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	if _, err := pc.Exec(ctx, "DROP TABLE sqlbench_cluster_check"); err != nil {
		return nil, fmt.Errorf("primary: drop the check table: %w", err)
	}
	r.logf("%s: a row written on the primary was read on the standby", r.srv.Kind)

	vars := map[string]string{}
	rows, err := pc.Query(ctx, "SELECT name, current_setting(name) FROM pg_settings WHERE name = ANY($1)",
		[]string{"synchronous_standby_names", "synchronous_commit", "max_wal_senders", "wal_level"})
	if err != nil {
		return nil, fmt.Errorf("primary: read pg_settings: %w", err)
	}
	for rows.Next() {
		var n, v string
		if err := rows.Scan(&n, &v); err != nil {
			rows.Close()
			return nil, fmt.Errorf("primary: read pg_settings: %w", err)
		}
		vars[n] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("primary: read pg_settings: %w", err)
	}
	var syncState string
	if err := pc.QueryRow(ctx, "SELECT sync_state FROM pg_stat_replication WHERE application_name = $1",
		standbyName).Scan(&syncState); err != nil {
		return nil, fmt.Errorf("primary: pg_stat_replication: %w", err)
	}
	vars["standby_sync_state"] = syncState
	vars["standby_version"] = sb.Version
	return vars, nil
}
