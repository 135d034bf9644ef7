package launcher

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the batch's goroutines and the
// test reading it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestBatchSaysWhatItBuilds: the plan first (with no figure when nothing
// is recorded), the modules downloaded in one line, each build's end with
// its time, a progress line while the log would stay silent, a failed
// build named, and the total.
func TestBatchSaysWhatItBuilds(t *testing.T) {
	cache := t.TempDir()
	var log syncBuffer
	b := &Batch{Cache: cache, Log: &log, Quiet: time.Millisecond,
		Download: func(context.Context) (int, error) { return 42, nil }}
	slow := func(context.Context) error { time.Sleep(1500 * time.Millisecond); return nil }
	errs := b.Run(context.Background(), []Job{
		{Name: "mattn", Note: "cgo", Record: "mattn", Build: slow},
		{Name: "purego", Record: "purego", Build: func(context.Context) error { return nil }},
		{Name: "bvinc", Note: "cgo", Record: "bvinc",
			Build: func(context.Context) error { return errors.New("no gcc") }},
	})
	if len(errs) != 1 || errs["bvinc"] == nil {
		t.Errorf("errors %v, want bvinc's only", errs)
	}
	out := log.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	plan := "building 3 runners the cache lacks for this source (one-time; later runs reuse them):\n" +
		"  mattn (cgo), purego, bvinc (cgo)\n  no build of them is recorded in " + cache + " to estimate from;"
	if !strings.HasPrefix(out, plan) {
		t.Errorf("plan lines:\n%s", out)
	}
	if !strings.Contains(out, "\ndownloaded 42 Go modules in 0s\n") {
		t.Errorf("downloads: want one line:\n%s", out)
	}
	for _, l := range lines {
		if len(l) > planWidth {
			t.Errorf("a line of %d columns: %s", len(l), l)
		}
	}
	for _, want := range []string{"built purego in ", "building bvinc failed after ", "building: mattn ",
		"s (2 of 3 done)\n",
		"built mattn in 1.5s (3 of 3)"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	total := "built 2 of 3 runners in 1.5s (one-time; cached in " + cache + ")"
	if last := lines[len(lines)-1]; last != total {
		t.Errorf("total: %q", last)
	}
}

// TestBatchOnATerminalRedrawsOneLine: on a terminal the progress is one
// line redrawn in place, cleared before the next line.
func TestBatchOnATerminalRedrawsOneLine(t *testing.T) {
	var log syncBuffer
	b := &Batch{Cache: t.TempDir(), Log: &log, TTY: true}
	b.Run(context.Background(), []Job{{Name: "mattn", Record: "mattn",
		Build: func(context.Context) error { time.Sleep(2500 * time.Millisecond); return nil }}})
	out := log.String()
	if n := strings.Count(out, "\r\x1b[Kbuilding: mattn "); n < 2 {
		t.Errorf("%d progress lines drawn in place, want 2 or more:\n%q", n, out)
	}
	if !strings.Contains(out, "\r\x1b[Kbuilt mattn in 2.5s (1 of 1)\n") {
		t.Errorf("the progress line was not cleared before the build's line:\n%q", out)
	}
}

// TestBatchRunsBoundBuildsAtOnce: at most Jobs builds at once, an apart
// build (Maven's) beside them.
func TestBatchRunsBoundBuildsAtOnce(t *testing.T) {
	var now, most atomic.Int32
	build := func(context.Context) error {
		n := now.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
		now.Add(-1)
		return nil
	}
	var jobs []Job
	for _, g := range []string{"a", "b", "c", "d", "e"} {
		jobs = append(jobs, Job{Name: g, Record: g, Build: build})
	}
	jobs = append(jobs, Job{Name: "the JDBC runner", Record: JarRecord, Apart: true, Build: build})
	b := &Batch{Cache: t.TempDir(), Jobs: 2, Log: &syncBuffer{}}
	start := time.Now()
	if errs := b.Run(context.Background(), jobs); len(errs) > 0 {
		t.Fatal(errs)
	}
	if m := most.Load(); m != 3 {
		t.Errorf("%d builds at once, want 3 (2 and the apart one)", m)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("5 builds of 100ms two at a time took %s", d)
	}
}

// TestEstimateFromRecords: the recorded times, placed as the batch runs
// them; no estimate while one is unrecorded.
func TestEstimateFromRecords(t *testing.T) {
	cache := t.TempDir()
	jobs := []Job{{Name: "mattn", Record: "mattn"}, {Record: "purego"}, {Record: "crawshaw"},
		{Record: JarRecord, Apart: true}}
	if _, ok := Estimate(cache, jobs, 2); ok {
		t.Error("an estimate with nothing recorded")
	}
	RecordBuild(cache, "mattn", 3*time.Minute)
	RecordBuild(cache, "purego", time.Minute)
	RecordBuild(cache, "crawshaw", 2*time.Minute)
	if _, ok := Estimate(cache, jobs, 2); ok {
		t.Error("an estimate without the jar's time")
	}
	RecordBuild(cache, JarRecord, 4*time.Minute)
	// Two at a time: mattn 0-3, purego 0-1, crawshaw 1-3; the jar 0-4.
	if d, ok := Estimate(cache, jobs, 2); !ok || d != 4*time.Minute {
		t.Errorf("estimate %v, %v; want 4m0s", d, ok)
	}
	RecordBuild(cache, JarRecord, time.Minute)
	if d, _ := Estimate(cache, jobs, 2); d != 3*time.Minute {
		t.Errorf("estimate %v, want 3m0s", d)
	}
	if d, _ := Estimate(cache, jobs, 1); d != 6*time.Minute {
		t.Errorf("one at a time: %v, want 6m0s", d)
	}
	lines := PlanLines(cache, jobs[:1], 2)
	if len(lines) != 3 || lines[1] != "  mattn" || lines[2] != "  estimated 3m0s, from their last builds in "+cache {
		t.Errorf("plan lines %q", lines)
	}
}
