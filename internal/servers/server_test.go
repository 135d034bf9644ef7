package servers

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStartStopTiming runs first and alone (it is not parallel), so the
// figures it logs are not skewed by the other tests' servers. Each kind
// starts twice with an empty template cache: cold (mariadb-install-db or
// initdb) and then warm (the data directory copied from the cache).
func TestStartStopTiming(t *testing.T) {
	for _, kind := range Kinds() {
		requireBinaries(t, kind)
		templates := t.TempDir()
		for _, phase := range []string{"cold", "warm"} {
			s := startServer(t, Options{Kind: kind, TemplateDir: templates})
			t.Logf("%s %s, %s: start-to-ready %v", kind, s.Version, phase, s.Ready.Round(time.Millisecond))
			if s.Ready <= 0 || s.Ready > readyBound {
				t.Errorf("%s %s: Ready = %v, want in (0, %v] (goal 3 s)", kind, phase, s.Ready, readyBound)
			}
			stopAndCheck(t, s)
		}
		want := 0 // initdb is as quick as a copy: no template
		if kind == KindMariaDB {
			want = 1
		}
		entries, err := os.ReadDir(templates)
		if err != nil || len(entries) != want {
			t.Errorf("%s: template cache holds %v (%v), want %d entries", kind, entries, err, want)
		}
	}
}

func TestServers(t *testing.T) {
	for _, kind := range Kinds() {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			requireBinaries(t, kind)
			t.Run("durable", func(t *testing.T) { t.Parallel(); testDurable(t, kind) })
			t.Run("fast", func(t *testing.T) { t.Parallel(); testProfile(t, kind, ProfileFast) })
			t.Run("seed", func(t *testing.T) { t.Parallel(); testProfile(t, kind, ProfileSeed) })
		})
	}
}

// testDurable starts two instances at once, checks they do not collide,
// and checks connections, credentials, settings and Stop on one of them.
func testDurable(t *testing.T, kind Kind) {
	var wg sync.WaitGroup
	var a, b *Server
	var errA, errB error
	wg.Go(func() { a, errA = tryStart(t, Options{Kind: kind}) })
	wg.Go(func() { b, errB = tryStart(t, Options{Kind: kind}) })
	wg.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("concurrent starts: %v; %v", errA, errB)
	}
	t.Logf("%s durable: ready in %v and %v (started together)", kind,
		a.Ready.Round(time.Millisecond), b.Ready.Round(time.Millisecond))
	if a.Port == b.Port || a.Dir == b.Dir || a.Socket == b.Socket || a.Password == b.Password {
		t.Errorf("concurrent instances collide: ports %d/%d, dirs %s/%s, sockets %s/%s",
			a.Port, b.Port, a.Dir, b.Dir, a.Socket, b.Socket)
	}
	if !a.Alive() || !b.Alive() {
		t.Fatalf("Alive() = %v, %v right after Start", a.Alive(), b.Alive())
	}
	if a.Profile != ProfileDurable || a.Host != "127.0.0.1" || a.User != "bench" || a.Database != "bench" ||
		len(a.Password) != 24 || a.Version == "" || a.PID <= 0 {
		t.Errorf("unexpected server description: %+v", a)
	}
	ctx := context.Background()
	for _, network := range []string{"tcp", "unix"} {
		if err := query(ctx, kind, a.DSN(network)); err != nil {
			t.Errorf("%s bench user over %s: %v", kind, network, err)
		}
		wrong := strings.Replace(a.DSN(network), a.Password, "Wrong"+a.Password[5:], 1)
		err := query(ctx, kind, wrong)
		switch {
		case network == "tcp" && err == nil:
			t.Errorf("%s: a wrong password was accepted over tcp", kind)
		case network == "unix" && kind == KindPostgres && err == nil:
			t.Errorf("%s: a wrong password was accepted over the socket", kind)
		}
		if err != nil && strings.Contains(err.Error(), a.Password) {
			t.Errorf("error reveals the password: %v", err)
		}
	}
	if err := query(ctx, kind, b.DSN("tcp")); err != nil {
		t.Errorf("%s second instance over tcp: %v", kind, err)
	}
	if kind == KindMariaDB {
		wantVars(t, a, map[string]string{"innodb_flush_log_at_trx_commit": "1", "innodb_doublewrite": "ON",
			"max_connections": "1000"})
	} else {
		wantVars(t, a, map[string]string{"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on",
			"max_connections": "1000"})
	}
	checkConfigLines(t, a)
	stopAndCheck(t, b)
	stopAndCheck(t, a)
}

// testProfile starts one instance with profile p and checks its settings.
func testProfile(t *testing.T, kind Kind, p Profile) {
	s := startServer(t, Options{Kind: kind, Profile: p, CacheBytes: testCache})
	t.Logf("%s %s: ready in %v, vars %v", kind, p, s.Ready.Round(time.Millisecond), s.Vars)
	if err := query(context.Background(), kind, s.DSN("tcp")); err != nil {
		t.Errorf("%s %s bench user over tcp: %v", kind, p, err)
	}
	switch {
	case kind == KindMariaDB && p == ProfileFast:
		wantVars(t, s, map[string]string{"innodb_flush_log_at_trx_commit": "0", "innodb_doublewrite": "OFF",
			"max_connections": "1000"})
		t.Logf("mariadb fast: innodb_flush_method = %s", s.Vars["innodb_flush_method"])
	case kind == KindMariaDB && p == ProfileSeed:
		checkSeed(t, s)
	case kind == KindPostgres && p == ProfileFast:
		wantVars(t, s, map[string]string{"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
			"max_connections": "1000"})
	case kind == KindPostgres && p == ProfileSeed:
		wantVars(t, s, map[string]string{
			"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on",
			"shared_buffers": "256MB", "max_connections": "3000",
		})
	}
	checkConfigLines(t, s)
	stopAndCheck(t, s)
}

func checkConfigLines(t *testing.T, s *Server) {
	t.Helper()
	lines := s.ConfigLines()
	k := string(s.Kind)
	if len(lines) < 3 || lines[0] != [2]string{k + "-version", s.Version} ||
		lines[1] != [2]string{k + "-profile", string(s.Profile)} {
		t.Fatalf("ConfigLines start %v, want version then profile", lines[:min(2, len(lines))])
	}
	seen := map[string]bool{}
	for i, l := range lines {
		key := l[0]
		if key != strings.ToLower(key) || strings.ContainsAny(key, " _\t") || !strings.HasPrefix(key, k+"-") ||
			seen[key] {
			t.Errorf("bad or repeated ConfigLines key %q", key)
		}
		seen[key] = true
		if i > 2 && key < lines[i-1][0] {
			t.Errorf("ConfigLines not sorted: %q after %q", key, lines[i-1][0])
		}
	}
	if s.Kind == KindMariaDB && !seen["mariadb-innodb-flush-log-at-trx-commit"] {
		t.Errorf("ConfigLines lack mariadb-innodb-flush-log-at-trx-commit: %v", lines)
	}
	if s.Kind == KindPostgres && !seen["postgres-fsync"] {
		t.Errorf("ConfigLines lack postgres-fsync: %v", lines)
	}
}

// checkSeed checks a seed MariaDB against the study's server.cnf: every
// option is either in force as requested (read back) or named as not taken.
func checkSeed(t *testing.T, s *Server) {
	t.Helper()
	if len(s.Seed) != len(seedCnf) {
		t.Fatalf("mariadb seed: %d settings recorded, server.cnf has %d", len(s.Seed), len(seedCnf))
	}
	want := map[string]string{
		"sql_mode":             "NO_BACKSLASH_ESCAPES,STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION",
		"collation_server":     "utf8mb4_unicode_ci",
		"character_set_server": "utf8mb4", "time_zone": "+00:00", "innodb_log_buffer_size": "536870912",
		"join_buffer_size": "536870912", "sort_buffer_size": "134217728", "tmp_table_size": "536870912",
		"table_definition_cache": "2000", "innodb_log_file_size": "8589934592", "innodb_autoextend_increment": "256",
		"innodb_old_blocks_time": "500", "net_read_timeout": "3600", "net_write_timeout": "3600",
		"max_connections": "3000", "innodb_flush_log_at_trx_commit": "1",
		"innodb_buffer_pool_size": strconv.FormatInt(testCache, 10),
	}
	lines := map[string]string{}
	for _, l := range s.ConfigLines() {
		lines[l[0]] = l[1]
	}
	for _, set := range s.Seed {
		line := lines["mariadb-seed-"+set.Option]
		if !strings.HasPrefix(line, "requested="+set.Requested) {
			t.Errorf("mariadb seed: line for %s = %q", set.Option, line)
		}
		if set.Unsupported != "" {
			t.Logf("mariadb seed: %s not taken: %s", set.Option, set.Unsupported)
			if !strings.Contains(line, "unsupported: ") {
				t.Errorf("mariadb seed: %s not taken but its line says %q", set.Option, line)
			}
			continue
		}
		if w, ok := want[set.Variable]; ok && set.InForce != w {
			t.Errorf("mariadb seed: %s in force %q, want %q", set.Variable, set.InForce, w)
		}
	}
	if n, err := strconv.ParseInt(seedVar(s, "max_allowed_packet"), 10, 64); err != nil || n < 1<<30 {
		t.Errorf("mariadb seed: max_allowed_packet = %q, want at least 1G", seedVar(s, "max_allowed_packet"))
	}
}

func seedVar(s *Server, name string) string {
	for _, set := range s.Seed {
		if set.Variable == name {
			return set.InForce
		}
	}
	return ""
}
