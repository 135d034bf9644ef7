package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/journal"
)

// TestCleanFindsTheSessionOfAKilledRun: a session killed before its first
// result leaves a results file of only its header and a journal; clean
// takes the session id from the journal, named or beside the file.
func TestCleanFindsTheSessionOfAKilledRun(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "r.txt")
	if err := os.WriteFile(results, []byte("Unit ns/op Better=lower\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := sessionID(results); err == nil ||
		!strings.Contains(err.Error(), "no journal of a session is at "+filepath.Join(dir, "r.journal")) {
		t.Errorf("a header alone, no journal: %v", err)
	}
	w, err := journal.Create(filepath.Join(dir, "r.journal"),
		journal.Header{Session: "k7q2zz", Results: results, Runs: 3})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, path := range []string{results, filepath.Join(dir, "r.journal")} {
		if id, err := sessionID(path); err != nil || id != "k7q2zz" {
			t.Errorf("sessionID(%s) = %q, %v; want the journal's k7q2zz", path, id, err)
		}
	}
	if err := os.WriteFile(results, []byte("session-id: a1b2c3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if id, err := sessionID(results); err != nil || id != "a1b2c3" {
		t.Errorf("the results file's own line: %q, %v", id, err)
	}
	// As the writer writes it now: a session fact's comment line.
	bw, err := benchfile.Create(results, benchfile.Overwrite)
	if err != nil {
		t.Fatal(err)
	}
	bw.SetConfig("session-id", "d4e5f6")
	if err := bw.WriteUnits(); err != nil {
		t.Fatal(err)
	}
	bw.Close()
	if id, err := sessionID(results); err != nil || id != "d4e5f6" {
		t.Errorf("the results file's session fact: %q, %v", id, err)
	}
}

// TestCleanExamplesRunAsWritten runs each example of clean's help, its
// files in place (and $SQLBENCH_POSTGRES_DSN set where its comment says
// so): none fails on its arguments. A DSN's server is not there, or
// refuses the example's user, so each ends on the server.
func TestCleanExamplesRunAsWritten(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var help, errb bytes.Buffer
	if code := Main(context.Background(), []string{"help", "clean"}, fakeEnv(&help, &errb)); code != ExitOK {
		t.Fatalf("help clean: exit %d, %s", code, errb.String())
	}
	_, examples, _ := strings.Cut(help.String(), "Examples:\n")
	examples, _, _ = strings.Cut(examples, "\n\n")
	ran := 0
	for _, line := range strings.Split(examples, "\n") {
		line, _, _ = strings.Cut(line, "#")
		args := shellWords(t, strings.TrimSpace(line))
		if len(args) < 2 || args[0] != "sqlbench" {
			continue
		}
		for _, a := range args {
			if strings.HasPrefix(a, "results/") {
				os.MkdirAll(filepath.Dir(a), 0o755)
				os.WriteFile(a, []byte("session-id: k7q2zz\n"), 0o644)
			}
		}
		var out, errb bytes.Buffer
		env := fakeEnv(&out, &errb)
		env.Getenv = func(k string) string {
			if k == "SQLBENCH_POSTGRES_DSN" {
				return "postgres://user:pw@127.0.0.1:5432/bench"
			}
			return ""
		}
		code := Main(context.Background(), args[1:], env)
		msg := errb.String()
		if len(args) == 2 { // sqlbench clean: the link proxies of killed sessions only
			if code != ExitOK || !strings.Contains(out.String(), "link proxy") &&
				!strings.Contains(out.String(), "removed link") {
				t.Errorf("%s: exit %d, %q %q; want exit 0 and a line on link proxies", line, code, out.String(), msg)
			}
			ran++
			continue
		}
		if code == ExitOK || !strings.Contains(msg, "server") && !strings.Contains(msg, "password") &&
			!strings.Contains(msg, "denied") {
			t.Errorf("%s: exit %d, %q; want it to fail on the server only", line, code, msg)
		}
		for _, bad := range []string{"is not a session id", "--dsn", "name the session", "--db must", "results file"} {
			if strings.Contains(msg, bad) {
				t.Errorf("%s: fails on its arguments: %s", line, msg)
			}
		}
		ran++
	}
	if ran != 4 {
		t.Errorf("ran %d examples of clean, want 4:\n%s", ran, examples)
	}
}

// shellWords splits a command line as a POSIX shell would, for the
// single-quoted words of the examples.
func shellWords(t *testing.T, s string) []string {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, c := range s {
		switch {
		case c == '\'':
			quoted, inWord = !quoted, true
		case c == ' ' && !quoted:
			if inWord {
				words = append(words, w.String())
				w.Reset()
			}
			inWord = false
		default:
			w.WriteRune(c)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}
