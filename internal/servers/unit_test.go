package servers

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseNames(t *testing.T) {
	for in, want := range map[string]Kind{"mariadb": KindMariaDB, "Postgres": KindPostgres} {
		if got, err := ParseKind(in); err != nil || got != want {
			t.Errorf("ParseKind(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseKind("oracle"); err == nil || !strings.Contains(err.Error(), "mariadb, postgres") {
		t.Errorf("ParseKind(oracle) error = %v, want the valid names", err)
	}
	for in, want := range map[string]Profile{"": ProfileDurable, "fast": ProfileFast, "SEED": ProfileSeed} {
		if got, err := ParseProfile(in); err != nil || got != want {
			t.Errorf("ParseProfile(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseProfile("turbo"); err == nil || !strings.Contains(err.Error(), "durable, fast, seed") {
		t.Errorf("ParseProfile(turbo) error = %v, want the valid names", err)
	}
}

func TestEndpointsAndDSNs(t *testing.T) {
	my := &Server{Kind: KindMariaDB, Host: "127.0.0.1", Port: 40001, Socket: "/tmp/sqb-1/mysqld.sock",
		User: "bench", Password: "PW", Database: "bench"}
	pg := &Server{Kind: KindPostgres, Host: "127.0.0.1", Port: 40002, Socket: "/tmp/sqb-2/.s.PGSQL.40002",
		User: "bench", Password: "PW", Database: "bench"}
	for _, c := range []struct {
		s             *Server
		network, want string
	}{
		{my, "tcp", "bench:PW@tcp(127.0.0.1:40001)/bench"},
		{my, "unix", "bench:PW@unix(/tmp/sqb-1/mysqld.sock)/bench"},
		{pg, "tcp", "postgres://bench:PW@127.0.0.1:40002/bench?sslmode=disable"},
		{pg, "unix", "host=/tmp/sqb-2 port=40002 user=bench password=PW dbname=bench sslmode=disable"},
		{pg, "udp", ""},
	} {
		if got := c.s.DSN(c.network); got != c.want {
			t.Errorf("%s DSN(%s) = %q, want %q", c.s.Kind, c.network, got, c.want)
		}
	}
	e, err := pg.Endpoint("unix")
	if err != nil || e.Addr != pg.Socket || e.Port != 40002 || e.Net != "unix" || e.Password != "PW" {
		t.Errorf("Endpoint(unix) = %+v, %v", e, err)
	}
	if e, err := my.Endpoint("tcp"); err != nil || e.Addr != "127.0.0.1:40001" {
		t.Errorf("Endpoint(tcp) = %+v, %v", e, err)
	}
	if _, err := my.Endpoint("udp"); err == nil {
		t.Error("Endpoint(udp) succeeded")
	}
}

func TestConfigLinesOrder(t *testing.T) {
	s := &Server{Kind: KindPostgres, Profile: ProfileFast, Version: "15.18 (Debian)",
		Vars: map[string]string{"server_version": "15.18 (Debian)", "fsync": "off", "Max_Connections": "100",
			"wal_level": "replica"}}
	want := [][2]string{
		{"postgres-version", "15.18 (Debian)"}, {"postgres-profile", "fast"},
		{"postgres-max-connections", "100"}, {"postgres-fsync", "off"}, {"postgres-wal-level", "replica"},
	}
	got := s.ConfigLines()
	if len(got) != len(want) {
		t.Fatalf("ConfigLines = %v, want %v", got, want)
	}
	// Sorted by variable name: Max_Connections < fsync < wal_level in byte order.
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestMeaningfulLine(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"2026-11-20 23:46:37 0 [Warning] Could not increase number of max_open_files\n" +
			"2026-11-20 23:46:37 0 [ERROR] mariadbd: unknown variable 'foo=1'\n" +
			"2026-11-20 23:46:37 0 [ERROR] Aborting\n",
			"[ERROR] mariadbd: unknown variable 'foo=1'"},
		{"2026-11-20 23:45:29.658 UTC [18145] LOG:  could not bind IPv4 address \"127.0.0.1\": Address already in " +
			"use\n" +
			"2026-11-20 23:45:29.658 UTC [18145] FATAL:  could not create any TCP/IP sockets\n" +
			"2026-11-20 23:45:29.660 UTC [18145] LOG:  database system is shut down\n",
			"FATAL: could not create any TCP/IP sockets"},
		{"initdb: error: directory \"x\" exists but is not empty\ninitdb: hint: remove it\n",
			"initdb: error: directory \"x\" exists but is not empty"},
		{"just some output\n\n", "just some output"},
		{"ERROR: bad password SECRET\n", "ERROR: bad password ********"},
	} {
		if got := meaningfulLine(c.log, "SECRET"); got != c.want {
			t.Errorf("meaningfulLine = %q, want %q", got, c.want)
		}
	}
}

func TestHelpers(t *testing.T) {
	pw, err := randomPassword(24)
	if err != nil || len(pw) != 24 ||
		strings.Trim(pw, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != "" {
		t.Errorf("randomPassword = %q, %v", pw, err)
	}
	if pw2, _ := randomPassword(24); pw2 == pw {
		t.Error("two passwords are equal")
	}
	want := "mariadb-server is not installed: mariadbd not found (apt-get install mariadb-server)"
	if got := notInstalled(KindMariaDB, "mariadbd").Error(); got != want {
		t.Errorf("notInstalled = %q, want %q", got, want)
	}
	if got := findProgram([]string{"no-such-program-sqb"}, []string{t.TempDir()}); got != "" {
		t.Errorf("findProgram found %q", got)
	}
	if compareVersions("15", "9.6") <= 0 || compareVersions("16", "16") != 0 {
		t.Error("compareVersions orders 15 before 9.6")
	}
	if isServerDir("/") || isServerDir("relative/sqb-1") || !isServerDir("/tmp/sqb-123") {
		t.Error("isServerDir misjudges")
	}
	if err := scrub(errString("password abc123 rejected"), "abc123"); strings.Contains(err.Error(), "abc123") {
		t.Errorf("scrub left the secret: %v", err)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestSeedMarksWhatTheServerDoesNotTake feeds markUnsupported the option
// list and warnings of a MariaDB 10.11 mariadbd --verbose --help.
func TestSeedMarksWhatTheServerDoesNotTake(t *testing.T) {
	plan := seedPlan(Options{CacheBytes: 256 * mib})
	var listed strings.Builder
	for _, c := range seedCnf {
		if c[0] != "innodb-log-files-in-group" && c[0] != "innodb-file-per-table" {
			fmt.Fprintf(&listed, "%-60s %s\n", c[0], "x")
		}
	}
	stderr := "[Warning] /usr/sbin/mariadbd: ignoring option '--character-set-client-handshake' due to invalid value " +
		"'utf8mb4'\n" +
		"[Warning] 'innodb-thread-concurrency' was removed. It does nothing now and exists only for compatibility " +
		"with old my.cnf files.\n"
	markUnsupported(plan, "Variables (--variable-name=value)\n"+listed.String(), stderr)
	got := map[string]string{}
	for _, s := range plan {
		if s.Unsupported != "" {
			got[s.Option] = s.Unsupported
		}
	}
	if len(got) != 4 || !strings.Contains(got["character-set-client-handshake"], `ignores the value "utf8mb4"`) ||
		!strings.Contains(got["innodb-thread-concurrency"], "removed") || got["innodb-log-files-in-group"] == "" ||
		got["innodb-file-per-table"] == "" {
		t.Errorf("unsupported = %v", got)
	}
	args := strings.Join(seedArgs(plan), " ")
	if strings.Contains(args, "thread-concurrency") || !strings.Contains(args, "--innodb-buffer-pool-size=256M") ||
		!strings.Contains(args, "--sql-mode=STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION,NO_BACKSLASH_ESCAPES") {
		t.Errorf("seed args %s", args)
	}
}

// TestTiDBHasNoProfileLine: TiDB runs on its own defaults, so its results
// header names no profile; MariaDB's does.
func TestTiDBHasNoProfileLine(t *testing.T) {
	for kind, want := range map[Kind]bool{KindTiDB: false, KindMariaDB: true} {
		s := &Server{Kind: kind, Version: "v", Profile: ProfileDurable}
		if kind == KindTiDB {
			s.Profile = ""
		}
		got := false
		for _, kv := range s.ConfigLines() {
			got = got || kv[0] == string(kind)+"-profile"
		}
		if got != want {
			t.Errorf("%s: a profile line %v, want %v", kind, got, want)
		}
	}
}

// TestClusterKinds: the cluster kinds parse, name their base kind and its
// database, take profiles, give their entry node's DSN, and record their
// topology and settings under their own name.
func TestClusterKinds(t *testing.T) {
	for _, c := range []struct {
		in         string
		kind, base Kind
	}{
		{"galera", KindGalera, KindMariaDB}, {"Postgres-Sync", KindPostgresSync, KindPostgres},
		{"mariadb", KindMariaDB, KindMariaDB}, {"tidb", KindTiDB, KindTiDB},
	} {
		k, err := ParseKind(c.in)
		if err != nil || k != c.kind || k.Base() != c.base || k.Clustered() != (c.base != c.kind) {
			t.Errorf("ParseKind(%q) = %q, %v; Base %q, Clustered %v", c.in, k, err, k.Base(), k.Clustered())
		}
	}
	if KindGalera.DB() != "mariadb" || KindPostgresSync.DB() != "postgres" || !KindGalera.Profiled() {
		t.Errorf("DB() = %s, %s; Profiled %v", KindGalera.DB(), KindPostgresSync.DB(), KindGalera.Profiled())
	}
	if _, err := ParseKind("oracle"); err == nil || !strings.Contains(err.Error(), "galera, postgres-sync") {
		t.Errorf("ParseKind(oracle) error = %v, want the cluster kinds among the valid names", err)
	}
	node := &Server{Kind: KindPostgres, Host: "127.0.0.1", Port: 40003, User: "bench", Password: "PW",
		Database: "bench",
		Node:     "primary", Dir: "/tmp/sqb-3/data/primary"}
	pair := &Server{Kind: KindPostgresSync, Profile: ProfileDurable, Host: "127.0.0.1", Port: 40003, User: "bench",
		Password: "PW", Database: "bench", Version: "15", Topology: "primary :40003 with 1 synchronous standby",
		Vars: map[string]string{"standby_sync_state": "sync"}, Nodes: []*Server{node}}
	if got, want := pair.DSN("tcp"), "postgres://bench:PW@127.0.0.1:40003/bench?sslmode=disable"; got != want {
		t.Errorf("postgres-sync DSN = %q, want %q", got, want)
	}
	got := fmt.Sprint(pair.ConfigLines())
	for _, want := range []string{"[postgres-sync-version 15]", "[postgres-sync-profile durable]",
		"[postgres-sync-standby-sync-state sync]",
		"[postgres-sync-topology primary :40003 with 1 synchronous standby]"} {
		if !strings.Contains(got, want) {
			t.Errorf("ConfigLines = %s, want %s among them", got, want)
		}
	}
}
