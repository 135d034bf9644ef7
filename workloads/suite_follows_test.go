package workloads_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/runner"
)

// TestLargeTestsFollowTheProgramsEarlierOnes: go-sqlite-bench at the
// published commit runs its 50, 100 and 200 KB large tests in that order
// in one process, so a run of the 100 KB test (insert or read) follows the
// 50 KB insert and read, and the 200 KB test's the 50 and 100 KB ones
// (bench.Workload.Follows). A real run of the 200 KB read on modernc, in a
// runner: the two earlier tests are replayed before its insert, each on a
// new file at the cell's path (the read, which checks every row, finds only
// its own); the heap is settled before the replay and after the run, and no
// collection is forced between (not before the cell's insert, not before
// its clock); no file is left after the run, as the program keeps one
// test's file at a time.
// preceding=none replays nothing.
func TestLargeTestsFollowTheProgramsEarlierOnes(t *testing.T) {
	want := map[string][]string{
		"size=50000":  nil,
		"size=100000": {"SuiteLargeQuery/size=50000"},
		"size=200000": {"SuiteLargeQuery/size=50000", "SuiteLargeQuery/size=100000"},
	}
	for _, w := range bench.Workloads() {
		if w.Name != "SuiteLargeInsert" && w.Name != "SuiteLargeQuery" {
			continue
		}
		if got := w.Follows; !slices.Equal(got, want[w.Keys]) {
			t.Errorf("%s follows %v, want %v", w.ID(), got, want[w.Keys])
		}
	}

	const id = "SuiteLargeQuery/size=200000"
	for _, none := range []bool{false, true} {
		dir := t.TempDir()
		dsn := filepath.Join(dir, "large.db")
		req := protocol.Request{Verb: protocol.VerbRun, Target: "modernc", Workload: id, DB: string(bench.SQLite),
			Location: protocol.Location{DSN: dsn}, Scope: "c0", Name: id, N: 1, Scale: 0.001, NoPreceding: none}
		var out, log bytes.Buffer
		s := &runner.Loop{In: strings.NewReader(req.Encode() + "\n"), Out: &out, Log: &log}
		forced := forcedCollections()
		if err := s.Serve(context.Background()); err != nil {
			t.Fatal(err)
		}
		forced = forcedCollections() - forced
		if !strings.Contains(out.String(), "--- ok") {
			t.Fatalf("preceding none %v: the run failed:\n%s\n%s", none, out.String(), log.String())
		}
		var replays []string
		for _, line := range strings.Split(log.String(), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "replay" {
				replays = append(replays, f[1])
			}
		}
		wantReplays := want["size=200000"]
		if none {
			wantReplays = nil
		}
		if !slices.Equal(replays, wantReplays) {
			t.Errorf("preceding none %v: replayed %v, want %v; log:\n%s", none, replays, wantReplays, log.String())
		}
		if forced != 2 {
			t.Errorf("preceding none %v: %d collections forced in the request, want 2 (the settlings before "+
				"it all and after the run)", none, forced)
		}
		// The read checks every row it reads (10 users of 200 KB): a run
		// that found the replays' users in its file failed above. No file
		// is left: the cell's go after its run too.
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			t.Errorf("preceding none %v: %s left after the run", none, e.Name())
		}
	}
}

// forcedCollections returns the collections forced so far in this process
// (runtime.GC, debug.FreeOSMemory).
func forcedCollections() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
