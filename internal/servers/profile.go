package servers

import (
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// Profile names a server configuration.
//
//   - durable (the default): settings that keep committed data safe.
//     Durable and fast raise max_connections to 1000 (see
//     benchMaxConnections).
//     MariaDB innodb_flush_log_at_trx_commit=1 (sync_binlog is reported; the
//     binary log is off); PostgreSQL fsync, synchronous_commit and
//     full_page_writes on.
//   - fast: durability off. MariaDB innodb_flush_log_at_trx_commit=0,
//     innodb_doublewrite=0 and innodb_flush_method=nosync when the server
//     accepts it; PostgreSQL fsync, synchronous_commit and full_page_writes
//     off.
//   - seed: for MariaDB, the server.cnf of the MariaDB single-insert study
//     (../shared/studies/003; seedCnf), every option this server takes
//     (sql_mode with NO_BACKSLASH_ESCAPES, utf8mb4_unicode_ci, time zone
//     +00:00, 512M log buffer, join/sort/tmp buffers, the 8G redo log,
//     ...); the 16G buffer pool is Options.CacheBytes when given, or half
//     the memory of a machine with less than 32G. Server.Seed records each
//     option as requested, as read back, or why this server does not take
//     it (removed in its version, a value it ignores). For PostgreSQL:
//     durable plus shared_buffers from Options.CacheBytes (default 25% of
//     memory) and max_connections=3000, the same ceiling as MariaDB.
type Profile string

// The configuration profiles.
const (
	// ProfileDurable keeps committed data safe; it is the default.
	ProfileDurable Profile = "durable"
	// ProfileFast turns durability off.
	ProfileFast Profile = "fast"
	// ProfileSeed is the configuration of MariaDB's published benchmarks.
	ProfileSeed Profile = "seed"
)

// Profiles lists the profiles in a fixed order, the default first.
func Profiles() []Profile { return []Profile{ProfileDurable, ProfileFast, ProfileSeed} }

// ParseProfile turns a name such as "fast" into a Profile; "" gives
// ProfileDurable. The error lists the valid names.
func ParseProfile(s string) (Profile, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return ProfileDurable, nil
	}
	for _, p := range Profiles() {
		if strings.EqualFold(s, string(p)) {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown server profile %q (valid: %s)", s, joinNames(Profiles()))
}

// seedMaxConnections is the connection ceiling of the seed profile.
const seedMaxConnections = 3000

// benchMaxConnections is the connection ceiling of the other profiles. A
// session keeps every cell's connection open between its interleaved runs,
// plus the clients of concurrent workloads: the full catalogue on both
// transports holds several hundred at once, past the distro defaults (151
// for MariaDB, 100 for PostgreSQL).
const benchMaxConnections = 1000

const mib = 1 << 20

// cacheBytes returns the memory for seed's caches: the option when set,
// else a quarter of MemTotal, never below 128 MiB (both servers' default).
func cacheBytes(opt Options) int64 {
	n := opt.CacheBytes
	if n <= 0 {
		total, err := memTotal()
		if err != nil {
			total = 0
		}
		n = total / 4
	}
	return max(n, 128*mib)
}

// memTotal reads MemTotal from /proc/meminfo, in bytes.
func memTotal() (int64, error) {
	n, err := procs.MemTotal()
	if err != nil {
		return 0, fmt.Errorf("read memory size: %w", err)
	}
	return n, nil
}

// mariadbProfileArgs returns the mariadbd options for the durable and fast
// profiles (seed's come from its server.cnf: seedArgs). flushNosync says
// whether this mariadbd accepts innodb_flush_method=nosync.
func mariadbProfileArgs(p Profile, flushNosync bool) []string {
	switch p {
	case ProfileFast:
		args := []string{"--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0",
			fmt.Sprintf("--max-connections=%d", benchMaxConnections)}
		if flushNosync {
			args = append(args, "--innodb-flush-method=nosync")
		}
		return args
	default:
		return []string{"--innodb-flush-log-at-trx-commit=1", fmt.Sprintf("--max-connections=%d", benchMaxConnections)}
	}
}

// mariadbVarNames lists the variables read back into Server.Vars.
func mariadbVarNames() []string {
	return []string{
		"version", "innodb_flush_log_at_trx_commit", "innodb_buffer_pool_size",
		"innodb_buffer_pool_instances", "innodb_log_buffer_size", "innodb_doublewrite",
		"innodb_flush_method", "sync_binlog", "max_allowed_packet", "max_connections",
		"sql_mode", "character_set_server", "performance_schema", "local_infile",
	}
}

// postgresProfileArgs returns the postgres -c options for a profile.
func postgresProfileArgs(p Profile, cache int64) []string {
	conns := []string{"-c", fmt.Sprintf("max_connections=%d", benchMaxConnections)}
	durable := []string{"-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "full_page_writes=on"}
	switch p {
	case ProfileFast:
		return append([]string{"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"},
			conns...)
	case ProfileSeed:
		return append(durable,
			"-c", fmt.Sprintf("shared_buffers=%dMB", cache/mib),
			"-c", fmt.Sprintf("max_connections=%d", seedMaxConnections))
	default:
		return append(durable, conns...)
	}
}

// postgresVarNames lists the settings read back into Server.Vars.
func postgresVarNames() []string {
	return []string{
		"server_version", "fsync", "synchronous_commit", "full_page_writes",
		"shared_buffers", "max_connections", "wal_level",
	}
}
