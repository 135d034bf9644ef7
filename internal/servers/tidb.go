package servers

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// TiDBModule and TiDBVersion pin the TiDB server sqlbench builds: the
// module's commit of 2025-11-26 on master (the proxy serves TiDB only at
// pseudo-versions: its v8.x tags are not valid versions of a module
// without a /v8 suffix). TiDBParser is its parser module, at the same
// commit: TiDB's go.mod replaces it with ./pkg/parser, which a module
// zip does not carry.
const (
	TiDBModule  = "github.com/pingcap/tidb"
	TiDBVersion = "v1.1.0-beta.0.20251126154744-e4e814fdc0af"
	TiDBParser  = "github.com/pingcap/tidb/pkg/parser v0.0.0-20251126154744-e4e814fdc0af"
	// TiDBRelease is what the server's version says it is (TiDB's own
	// Makefile sets it from git describe, which a module build has not):
	// SELECT VERSION() gives 8.0.11-TiDB-master-e4e814fdc0af.
	TiDBRelease = "master-" + tidbCommit
	tidbCommit  = "e4e814fdc0af"
)

// tidbReplaces are the replace directives of TiDB's own go.mod, which a
// module depending on it must repeat (Go ignores a dependency's replaces).
var tidbReplaces = []string{
	"github.com/go-ldap/ldap/v3 => github.com/YangKeao/ldap/v3 v3.4.5-0.20230421065457-369a3bab1117",
	"github.com/pingcap/tidb/pkg/parser => " + TiDBParser,
	"sourcegraph.com/sourcegraph/appdash => github.com/sourcegraph/appdash v0.0.0-20190731080439-ebfcffb1b5c0",
	"sourcegraph.com/sourcegraph/appdash-data => github.com/sourcegraph/appdash-data " +
		"v0.0.0-20151005221446-73f23eafcf67",
}

// tidb starts tidb-server with its embedded unistore storage: one process,
// the SQL layer and protocol of a TiDB cluster, its storage in the
// server's directory. The binary is built once from the pinned module, in
// a module of its own under the cache, and kept there.
type tidb struct{ cache string }

func findTiDB() (*tidb, error) {
	if _, err := exec.LookPath("go"); err != nil {
		return nil, fmt.Errorf("tidb is built from its Go module and needs the Go toolchain: %w", err)
	}
	return &tidb{cache: TiDBCacheDir()}, nil
}

// TiDBCacheDir is where the built tidb-server is kept, by version.
func TiDBCacheDir() string {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	return filepath.Join(base, "sqlbench", "tidb-"+TiDBRelease)
}

func (t *tidb) binary() string { return filepath.Join(t.cache, "tidb-server") }

func (t *tidb) binaries() []string { return nil } // unistore initializes in a moment

func (t *tidb) socket(dir string, _ int) string { return filepath.Join(dir, "tidb.sock") }

func (t *tidb) logs(dir string) []string {
	return []string{filepath.Join(dir, "tidb.log"), filepath.Join(dir, serverLog)}
}

// initialize builds tidb-server on first use and creates the data and
// temp directories.
func (t *tidb) initialize(ctx context.Context, r *run) error {
	if _, err := os.Stat(t.binary()); err != nil {
		r.logf("tidb: building tidb-server %s from the Go module proxy into %s (first use: minutes, ~250 MB)",
			TiDBVersion, t.cache)
		if err := buildTiDB(ctx, t.cache, t.binary()); err != nil {
			return err
		}
	}
	for _, d := range []string{"data", "tmp"} {
		if err := os.MkdirAll(filepath.Join(r.srv.Dir, d), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// buildTiDB builds tidb-server into bin from a module of its own (so that
// no project's go.mod is touched), renaming a complete binary into place.
func buildTiDB(ctx context.Context, cache, bin string) error {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return fmt.Errorf("tidb cache: %w", err)
	}
	mod, err := os.MkdirTemp(cache, "build-")
	if err != nil {
		return fmt.Errorf("tidb cache: %w", err)
	}
	defer os.RemoveAll(mod)
	gomod := "module sqlbench.local/tidb\n\ngo 1.23\n\nreplace (\n\t" + strings.Join(tidbReplaces, "\n\t") + "\n)\n"
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		return fmt.Errorf("tidb build module: %w", err)
	}
	pkg := TiDBModule + "/cmd/tidb-server"
	tmp := bin + ".tmp"
	for _, args := range [][]string{
		{"get", pkg + "@" + TiDBVersion},
		{"build", "-o", tmp, "-ldflags", "-X github.com/pingcap/tidb/pkg/parser/mysql.TiDBReleaseVersion=" +
			TiDBRelease +
			" -X github.com/pingcap/tidb/pkg/util/versioninfo.TiDBGitHash=" + tidbCommit, pkg},
	} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			os.Remove(tmp)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("go %s: %v: %s", args[0], err, meaningfulLine(out.String(), ""))
		}
	}
	if err := os.Rename(tmp, bin); err != nil {
		return fmt.Errorf("tidb cache: %w", err)
	}
	return nil
}

func (t *tidb) configure(ctx context.Context, r *run) error {
	// temp-dir: TiDB's default is a fixed /tmp/<uid>_tidb shared by every
	// instance; each server gets its own.
	conf := fmt.Sprintf("temp-dir = %q\ntmp-storage-path = %q\n",
		filepath.Join(r.srv.Dir, "tmp"), filepath.Join(r.srv.Dir, "tmp", "storage"))
	return os.WriteFile(filepath.Join(r.srv.Dir, "tidb.toml"), []byte(conf), 0o644)
}

func (t *tidb) command(r *run) (string, []string) {
	s := r.srv
	return t.binary(), []string{
		"-config=" + filepath.Join(s.Dir, "tidb.toml"),
		"-store=unistore",
		"-path=" + filepath.Join(s.Dir, "data"),
		"-host=127.0.0.1",
		fmt.Sprintf("-P=%d", s.Port),
		"-socket=" + s.Socket,
		// The status port (HTTP API, metrics) would be a fixed 10080
		// shared by every instance; the benchmarks do not use it.
		"-report-status=false",
		"-log-file=" + filepath.Join(s.Dir, "tidb.log"),
	}
}

func (t *tidb) connectAdmin(ctx context.Context, s *Server) (admin, error) {
	a, err := rootAdmin(ctx, s)
	if err != nil {
		return nil, err
	}
	return tidbAdmin{a}, nil
}

func (t *tidb) userPing(ctx context.Context, s *Server) error {
	return (&mariadb{}).userPing(ctx, s)
}

type tidbAdmin struct{ mariadbAdmin }

// bootstrap creates the bench database and user, then gives root (which a
// fresh TiDB lets in from any host without a password) the bench user's
// password: only the holder of the server's state can connect.
func (a tidbAdmin) bootstrap(ctx context.Context, s *Server) error {
	return a.exec(ctx,
		"CREATE DATABASE "+s.Database,
		fmt.Sprintf("CREATE USER %s@'%%' IDENTIFIED BY %s", sqlString(s.User), sqlString(s.Password)),
		fmt.Sprintf("GRANT ALL PRIVILEGES ON %s.* TO %s@'%%'", s.Database, sqlString(s.User)),
		fmt.Sprintf("ALTER USER 'root'@'%%' IDENTIFIED BY %s", sqlString(s.Password)),
	)
}

// readBack reads the version and TiDB's own settings that shape a
// benchmark.
func (a tidbAdmin) readBack(ctx context.Context, s *Server) error {
	err := a.readGlobals(ctx, s, []string{"tidb_txn_mode", "tidb_enable_async_commit", "tidb_enable_1pc",
		"tidb_mem_quota_query", "transaction_isolation"})
	if err == nil {
		s.Vars["store"] = "unistore"
	}
	return err
}
