package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/journal"
	"github.com/sqlbench/sqlbench/internal/session"
)

// TestRunRefusesToOverwriteResults: -o naming an existing file is bad
// input and leaves the file as it was; --force overwrites it.
func TestRunRefusesToOverwriteResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keep.txt")
	if err := os.WriteFile(path, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"run", "--targets", "jdbc-sqlite", "-o", path}, fakeEnv(&out, &errb))
	if code != ExitUsage || !strings.Contains(errb.String(), "exists: pass --force") {
		t.Errorf("exit %d, stderr %q; want 2 and a line saying the file exists", code, errb.String())
	}
	if b, _ := os.ReadFile(path); string(b) != "precious\n" {
		t.Errorf("the existing file now holds %q", b)
	}
}

// TestRunThatCannotStartLeavesNoFile: a session that ends before any run
// (here: its only target cannot be built on this machine) leaves no
// results file, whether named or default, and exits 3.
func TestRunThatCannotStartLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "--targets", "jdbc-sqlite", "-o", filepath.Join(dir, "named.txt")},
		{"run", "--targets", "jdbc-sqlite"},
	} {
		var out, errb bytes.Buffer
		env := fakeEnv(&out, &errb)
		env.Dir = dir
		code := Main(context.Background(), args, env)
		if code != ExitFailed || !strings.Contains(errb.String(), "no target can run") {
			t.Errorf("%v: exit %d, stderr %q; want 3, no target can run", args, code, errb.String())
		}
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
}

// TestReportMarksAnUnfinishedSessionPartial: a results file with its
// session's journal still beside it is reported as partial, with how far
// the session got and how to finish it.
func TestReportMarksAnUnfinishedSessionPartial(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "r.txt")
	b, err := os.ReadFile("testdata/results.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(results, b, 0o644)
	jw, err := journal.Create(session.JournalPath(results),
		journal.Header{Session: "abc123", Results: results, Runs: 10, Config: []byte("{}")})
	if err != nil {
		t.Fatal(err)
	}
	jw.Add(journal.Record{Cell: "SimpleQuery/db=sqlite/driver=mattn/api=sql", Run: 1, Slice: 1,
		Line: "BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 1 1 ns/op"})
	jw.Close()
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	if code := Main(context.Background(), []string{"report", "--format", "markdown", "-o", "-", results},
		env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := "did not finish (1 of its 10 runs begun); sqlbench run --resume " + session.JournalPath(results)
	if !strings.Contains(out.String(), "Partial: "+results+" is of a session that "+want) {
		t.Errorf("the report does not say the session is partial:\n%s", out.String()[:min(600, out.Len())])
	}
	os.Remove(session.JournalPath(results))
	out.Reset()
	Main(context.Background(), []string{"report", "--format", "markdown", "-o", "-", results}, env)
	if strings.Contains(out.String(), "Partial: ") {
		t.Errorf("a finished session's report says partial:\n%s", out.String())
	}
}

// TestResumeThatCannotStartKeepsTheResults: a resume that ends before it
// starts (here: its only target cannot be built on this machine) leaves
// the interrupted session's results file as it was, and no other file.
func TestResumeThatCannotStartKeepsTheResults(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "r.txt")
	const kept = "goos: linux\n\nBenchmarkSimpleExec/db=sqlite/driver=xerial/api=jdbc 10 100 ns/op\n"
	os.WriteFile(results, []byte(kept), 0o644)
	cfg := `{"Config":{"DBs":["sqlite"],"Targets":["jdbc-sqlite"],"Workloads":["SimpleExec"],"Count":1,"Slices":1,` +
		`"Scale":0.01,"Timeout":60000000000},"DSNs":null}`
	jw, err := journal.Create(session.JournalPath(results),
		journal.Header{Session: "abc123", Results: results, Runs: 1, Config: []byte(cfg)})
	if err != nil {
		t.Fatal(err)
	}
	jw.Close()
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	if code := Main(context.Background(), []string{"run", "--resume", "r.journal"}, env); code != ExitFailed ||
		!strings.Contains(errb.String(), "no target can run") {
		t.Fatalf("exit %d, stderr %q; want 3, no target can run", code, errb.String())
	}
	if b, _ := os.ReadFile(results); string(b) != kept {
		t.Errorf("the interrupted session's results now hold %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("files left: %v; want the results and the journal", entries)
	}
}
