package cli

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestServerBytesPerOpDoNotDependOnSlices: on a server target, whose runs
// read the server's CPU from /proc around every slice, B/op is the
// driver's alone: the same at --slices 1 as at 5 (the probe's readings
// once landed inside the memory statistics, so that more slices read more
// B/op: pgx-native PreparedExec 93 B/op at 1 slice, 139 at 5, 302 at 20).
func TestServerBytesPerOpDoNotDependOnSlices(t *testing.T) {
	env, stdout, stderr, cache, tmp := realEnv(t)
	srv, _ := userDB(t, servers.KindPostgres, tmp)
	bytesPerOp := func(n string) map[string]float64 {
		stdout.Reset()
		stderr.Reset()
		out := filepath.Join(t.TempDir(), "out.txt")
		code := Main(context.Background(), []string{"run", "--db", "postgres", "--targets", "pgx-native",
			"--workloads", "PreparedExec,SimpleQuery", "--scale", "0.05", "--count", "3",
			"--slices", n, "--dsn", "postgres=" + srv.DSN("tcp"), "-o", out, "--cache", cache}, env)
		if code != ExitOK {
			t.Fatalf("--slices %s: exit %d\n%s\n%s", n, code, stdout, stderr)
		}
		set, err := benchfile.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		runs := map[string][]float64{}
		for _, r := range set.Results {
			if _, ok := r.Value("server-cpu-sec/op"); !ok {
				t.Fatalf("%s has no server CPU: the probe did not run", r.Name)
			}
			v, _ := r.Value("B/op")
			runs[r.Name.String()] = append(runs[r.Name.String()], v)
		}
		med := map[string]float64{}
		for name, vs := range runs {
			slices.Sort(vs)
			med[strings.TrimSuffix(name, "/net=tcp")] = vs[len(vs)/2]
		}
		return med
	}
	one, five := bytesPerOp("1"), bytesPerOp("5")
	for name, b1 := range one {
		b5, ok := five[name]
		t.Logf("%s: %.1f B/op at 1 slice, %.1f at 5", name, b1, b5)
		if !ok || b5 > 1.1*b1+8 || b5 < 0.9*b1-8 {
			t.Errorf("%s: %.1f B/op at 1 slice, %.1f at 5: want the same within 10%%", name, b1, b5)
		}
	}
}
