package servers

import (
	"bufio"
	"fmt"
	"regexp"
	"strings"
)

// SeedSetting is one setting of the seed profile's server.cnf: what the
// study asked for, what this server has in force, or why it has not.
type SeedSetting struct {
	// Option is the server.cnf option ("join-buffer-size"); Requested its
	// value there ("512M").
	Option    string `json:"option"`
	Requested string `json:"requested"`
	// Applied is the value sqlbench passed, when it differs from
	// Requested (the buffer pool on a machine with less memory).
	Applied string `json:"applied,omitempty"`
	// Variable is the global variable that holds it ("join_buffer_size");
	// empty for an option that is no variable.
	Variable string `json:"variable,omitempty"`
	// InForce is the variable's value read back from the running server.
	InForce string `json:"in_force,omitempty"`
	// Unsupported says why this server does not take the option (removed
	// in its version, a value it ignores); the option was not passed.
	Unsupported string `json:"unsupported,omitempty"`
}

// seedCnf is the server.cnf of the MariaDB single-insert study
// (../shared/studies/003), in its order: option, value, and the global
// variable holding it.
var seedCnf = [][3]string{
	{"default-storage-engine", "INNODB", "default_storage_engine"},
	{"sql-mode", "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION,NO_BACKSLASH_ESCAPES", "sql_mode"},
	{"character-set-server", "utf8mb4", "character_set_server"},
	{"collation-server", "utf8mb4_unicode_ci", "collation_server"},
	{"character-set-client-handshake", "utf8mb4", ""},
	{"default-time-zone", "+00:00", "time_zone"},
	{"join-buffer-size", "512M", "join_buffer_size"},
	{"max-allowed-packet", "2G", "max_allowed_packet"},
	{"sort-buffer-size", "128M", "sort_buffer_size"},
	{"table-definition-cache", "2000", "table_definition_cache"},
	{"max-connections", "3000", "max_connections"},
	{"tmp-table-size", "512M", "tmp_table_size"},
	{"innodb-flush-log-at-trx-commit", "1", "innodb_flush_log_at_trx_commit"},
	{"innodb-log-buffer-size", "512M", "innodb_log_buffer_size"},
	{"innodb-buffer-pool-size", "16G", "innodb_buffer_pool_size"},
	{"innodb-buffer-pool-instances", "8", "innodb_buffer_pool_instances"},
	{"innodb-thread-concurrency", "8", "innodb_thread_concurrency"},
	{"innodb-log-files-in-group", "4", "innodb_log_files_in_group"},
	{"innodb-log-file-size", "8G", "innodb_log_file_size"},
	{"innodb-write-io-threads", "4", "innodb_write_io_threads"},
	{"innodb-read-io-threads", "4", "innodb_read_io_threads"},
	{"innodb-autoextend-increment", "256", "innodb_autoextend_increment"},
	{"innodb-old-blocks-time", "500", "innodb_old_blocks_time"},
	{"innodb-file-per-table", "ON", "innodb_file_per_table"},
	{"net-read-timeout", "3600", "net_read_timeout"},
	{"net-write-timeout", "3600", "net_write_timeout"},
}

// seedPlan returns the seed profile's settings as requested, the buffer
// pool sized by opt when the machine cannot hold the published 16G.
func seedPlan(opt Options) []SeedSetting {
	out := make([]SeedSetting, len(seedCnf))
	for i, c := range seedCnf {
		out[i] = SeedSetting{Option: c[0], Requested: c[1], Variable: c[2]}
		if c[0] == "innodb-buffer-pool-size" {
			if pool := seedPool(opt); pool != 16<<10*mib {
				out[i].Applied = fmt.Sprintf("%dM", pool/mib)
			}
		}
	}
	return out
}

// seedPool is the buffer pool seed asks for: the published 16G, or
// Options.CacheBytes when given, or half the machine's memory when that is
// less than 16G.
func seedPool(opt Options) int64 {
	const published = 16 << 10 * mib
	if opt.CacheBytes > 0 {
		return opt.CacheBytes
	}
	if total, err := memTotal(); err == nil && total/2 < published {
		return max(total/2, 128*mib)
	}
	return published
}

// seedArgs returns the mariadbd options of the settings this server takes.
func seedArgs(plan []SeedSetting) []string {
	var args []string
	for _, s := range plan {
		if s.Unsupported != "" {
			continue
		}
		v := s.Requested
		if s.Applied != "" {
			v = s.Applied
		}
		args = append(args, "--"+s.Option+"="+v)
	}
	return args
}

var (
	removedRe = regexp.MustCompile(`'([a-z0-9-]+)' was removed`)
	ignoredRe = regexp.MustCompile(`ignoring option '--([a-z0-9-]+)' due to invalid value '([^']*)'`)
)

// markUnsupported reads mariadbd --verbose --help's option list (stdout)
// and warnings (stderr), run with every seed option, and marks the
// settings this server does not take: options it does not list, options
// it says were removed (accepted, doing nothing), values it ignores.
func markUnsupported(plan []SeedSetting, stdout, stderr string) {
	listed := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 {
			listed[f[0]] = true
		}
	}
	why := map[string]string{}
	for _, m := range removedRe.FindAllStringSubmatch(stderr, -1) {
		why[m[1]] = "removed in this server version (accepted, does nothing)"
	}
	for _, m := range ignoredRe.FindAllStringSubmatch(stderr, -1) {
		why[m[1]] = fmt.Sprintf("this server ignores the value %q (not one it takes for this option)", m[2])
	}
	for i := range plan {
		switch {
		case why[plan[i].Option] != "":
			plan[i].Unsupported = why[plan[i].Option]
		case !listed[plan[i].Option]:
			plan[i].Unsupported = "this server has no such option"
		}
	}
}

// seedVarNames returns the variables of the seed settings.
func seedVarNames(plan []SeedSetting) []string {
	var out []string
	for _, s := range plan {
		if s.Variable != "" {
			out = append(out, s.Variable)
		}
	}
	return out
}

// seedConfigLines returns one results-file line per seed setting:
// mariadb-seed-<option>: requested=V [applied=A] in-force=X, or
// unsupported: <why>.
func seedConfigLines(k string, plan []SeedSetting) [][2]string {
	var out [][2]string
	for _, s := range plan {
		v := "requested=" + s.Requested
		if s.Applied != "" {
			v += " applied=" + s.Applied
		}
		switch {
		case s.Unsupported != "":
			v += " unsupported: " + s.Unsupported
		case s.Variable == "":
			v += " in-force=(an option, no variable to read back)"
		default:
			v += " in-force=" + oneLine(s.InForce)
		}
		out = append(out, [2]string{k + "-seed-" + s.Option, v})
	}
	return out
}
