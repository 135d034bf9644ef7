package benchfile

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"
)

// sample is a header with every field set.
func sample() Header {
	return Header{
		Pin: "split 0 | 1", TimingThread: "auto (locked on SQLite)", IdleLatency: "low (held)", CPUProfile: "/tmp/prof",
		Version: "v0.0.0-dev", Command: "sqlbench run --quick=true", Count: 6, Slices: 5, Scale: 0.1,
		SmokeScales: []NamedScale{{"BulkInsert", 0.0001}, {"SuiteSimpleInsert", 0.001}},
		Warmup:      0.1, WarmupAll: true, JITWarmup: "off: a cold JVM", CPUs: []int{2, 4},
		Study: "sqinn-go", Began: time.Date(2026, 11, 26, 4, 59, 30, 250e6, time.UTC),
		Started:  time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC),
		Finished: time.Date(2026, 11, 26, 5, 1, 0, 5e6, time.UTC), SessionID: "abc123",
	}
}

// roundTrip writes h as a results file's header above one result, reads
// the file back and parses the result's configuration.
func roundTrip(t *testing.T, h Header) Header {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.txt")
	w, err := Create(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	h.Write(w)
	if err := w.WriteUnits(); err != nil {
		t.Fatal(err)
	}
	r := &benchfmt.Result{Name: benchfmt.Name("SimpleQuery/db=sqlite/driver=mattn/api=sql"), Iters: 10,
		Values: []benchfmt.Value{{Value: 1000, Unit: "ns/op"}}}
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	set, err := ReadFile(path)
	if err != nil || len(set.Results) != 1 {
		t.Fatalf("read back: %v, %d results", err, len(set.Results))
	}
	back, err := ParseHeader(set.Results[0].Config)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// TestHeaderRoundTrip: every field of a header survives the results file,
// its session facts written as comment lines included; a header without the
// optional lines comes back without them.
func TestHeaderRoundTrip(t *testing.T) {
	for _, h := range []Header{sample(),
		{Pin: "none", TimingThread: "free", Version: "v1", Command: "sqlbench run", Count: 1, Slices: 1, Scale: 1}} {
		if back := roundTrip(t, h); !reflect.DeepEqual(back, h) {
			t.Errorf("round trip\n got %+v\nwant %+v", back, h)
		}
	}
}

// TestParseHeaderRefusesWhatItCannotRead names the key of a value that does
// not parse, and ignores the lines of other keys.
func TestParseHeaderRefusesWhatItCannotRead(t *testing.T) {
	for key, v := range map[string]string{
		KeyCount: "six", KeySlices: "-1", KeyScale: "0", KeyWarmup: "NaN", KeyWarmupAll: "maybe",
		KeySmokeScales: "BulkInsert", KeyCPU: "2,,4", KeyStarted: "yesterday",
	} {
		_, err := ParseHeader([]benchfmt.Config{{Key: key, Value: []byte(v)}})
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: %q: %v, want an error naming the key", key, v, err)
		}
	}
	h, err := ParseHeader(
		[]benchfmt.Config{{Key: "goos", Value: []byte("linux")}, {Key: KeyScale, Value: []byte("0.5")}})
	if err != nil || h.Scale != 0.5 || h.ScaleOf("Anything") != 0.5 {
		t.Errorf("%+v, %v", h, err)
	}
	if setUp, runs, ok := sample().Elapsed(); !ok || setUp != 29750*time.Millisecond || runs != 60005*time.Millisecond {
		t.Errorf("Elapsed = %v, %v, %v", setUp, runs, ok)
	}
	if s := sample(); s.ScaleOf("BulkInsert") != 0.0001 || s.ScaleOf("SimpleQuery") != 0.1 ||
		(Header{}).ScaleOf("x") != 1 {
		t.Error("ScaleOf does not take the smoke scale, then the scale, then 1")
	}
}

// line reports whether s can be a configuration line's value as given:
// one line of printable text without surrounding space.
func line(s string) bool {
	if !utf8.ValidString(s) || s != strings.TrimSpace(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// FuzzHeaderRoundTrip: whatever header lines parse, the header they give
// is written back as lines that parse to the same header; and a header of
// values a session writes survives the results file.
func FuzzHeaderRoundTrip(f *testing.F) {
	f.Add("6", "5", "0.1", "BulkInsert=0.0001 X=0.5", "0.1", "true", "2,4", "2026-11-26T05:00:00Z", "split 0 | 1",
		"sqlbench run")
	f.Add("1", "1", "1", "", "0", "false", "", "", "none", "")
	f.Add("x", "-3", "1e400", "A=", "NaN", "1", "0", "now", "", "a\nb")
	f.Fuzz(func(t *testing.T, count, slices, scale, smoke, warmup, all, cpu, started, pin, command string) {
		var cfg []benchfmt.Config
		for _, kv := range [][2]string{{KeyCount, count}, {KeySlices, slices}, {KeyScale, scale},
			{KeySmokeScales, smoke},
			{KeyWarmup, warmup}, {KeyWarmupAll, all}, {KeyCPU, cpu}, {KeyStarted, started}, {KeyPin, pin},
			{KeyCommand, command}} {
			if kv[1] != "" {
				cfg = append(cfg, benchfmt.Config{Key: kv[0], Value: []byte(kv[1])})
			}
		}
		h, err := ParseHeader(cfg)
		if err != nil {
			return
		}
		var again []benchfmt.Config
		for _, kv := range h.Lines() {
			again = append(again, benchfmt.Config{Key: kv[0], Value: []byte(kv[1])})
		}
		back, err := ParseHeader(again)
		if err != nil {
			t.Fatalf("the lines of %+v do not parse: %v", h, err)
		}
		if !reflect.DeepEqual(back, h) {
			t.Fatalf("lines %q\nparse to %+v\nwant %+v", h.Lines(), back, h)
		}
		if line(pin) && line(command) && pin != "" && command != "" && h.Scale > 0 {
			h.Pin, h.Command, h.Version, h.TimingThread = pin, command, "v", "free"
			if back := roundTrip(t, h); !reflect.DeepEqual(back, h) {
				t.Fatalf("through a results file\n got %+v\nwant %+v", back, h)
			}
		}
	})
}
