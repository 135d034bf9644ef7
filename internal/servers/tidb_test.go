package servers

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTiDBKind checks what a TiDB server is without starting one (the
// end-to-end test, SQLBENCH_TIDB=1, starts a real one): its name, the
// database its targets speak, its DSN form, and a command line that keeps
// it on loopback and inside its own directory.
func TestTiDBKind(t *testing.T) {
	k, err := ParseKind("TiDB")
	if err != nil || k != KindTiDB || k.DB() != "mariadb" || KindPostgres.DB() != "postgres" {
		t.Fatalf("ParseKind(TiDB) = %q, %v; DB %q", k, err, k.DB())
	}
	if slices.Contains(Kinds(), KindTiDB) {
		t.Error("Kinds lists tidb: every test and sweep over Kinds would build it")
	}
	dir := t.TempDir()
	s := &Server{Kind: KindTiDB, Host: "127.0.0.1", Port: 4321, Socket: filepath.Join(dir, "tidb.sock"), User: "bench",
		Password: "pw", Database: "bench", Dir: dir}
	if got, want := s.DSN("tcp"), "bench:pw@tcp(127.0.0.1:4321)/bench"; got != want {
		t.Errorf("DSN = %q, want %q", got, want)
	}
	eng := &tidb{cache: dir}
	path, args := eng.command(&run{srv: s})
	line := strings.Join(args, " ")
	// -path names the data directory, by which Stop and Sweep know the
	// process is this server's (ownsProcess).
	for _, want := range []string{"-host=127.0.0.1", "-P=4321", "-store=unistore", "-path=" +
		filepath.Join(dir, "data"), "-report-status=false", "-socket=" + s.Socket} {
		if !strings.Contains(line, want) {
			t.Errorf("command %s %s lacks %s", path, line, want)
		}
	}
}
