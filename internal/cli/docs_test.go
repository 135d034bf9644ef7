package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// generated is a block of the docs generated from the binary's output:
// <!-- generated: sqlbench ARGS --> ... <!-- end generated -->.
var generated = regexp.MustCompile(`(?s)<!-- generated: sqlbench ([^>]*?) -->\n.*?<!-- end generated -->`)

// TestDocsMatchTheBinary: every generated block of README.md and docs/
// holds what sqlbench prints for it now (help in a text block, list
// --markdown as is). go test ./internal/cli -run TestDocs -update rewrites
// the blocks.
func TestDocsMatchTheBinary(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../README.md")
	update := flag.Lookup("update") != nil && flag.Lookup("update").Value.String() == "true"
	blocks := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var stale []string
		got := generated.ReplaceAllStringFunc(string(b), func(block string) string {
			blocks++
			args := generated.FindStringSubmatch(block)[1]
			fresh := "<!-- generated: sqlbench " + args + " -->\n" + docsOutput(t, strings.Fields(args)) +
				"<!-- end generated -->"
			if fresh != block {
				stale = append(stale, "sqlbench "+args)
			}
			return fresh
		})
		switch {
		case len(stale) == 0:
		case update:
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		default:
			t.Errorf("%s drifted from the binary: %s (go test ./internal/cli -run TestDocs -update rewrites it)", path,
				strings.Join(stale, ", "))
		}
	}
	if blocks < 5 {
		t.Errorf("%d generated blocks in the docs; the flag and workload tables are missing", blocks)
	}
}

// docsOutput is what sqlbench args prints on a machine with every tool
// and no results, as it goes into the docs.
func docsOutput(t *testing.T, args []string) string {
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" },
		LookPath: func(name string) (string, error) { return "/usr/bin/" + name, nil }, Dir: "/nonexistent"}
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("sqlbench %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	if args[0] == "help" {
		return "```text\n" + out.String() + "```\n"
	}
	return out.String()
}

// TestReadmeIsShort: the README is the pitch, the two set-up commands,
// the quick start, an excerpt, next steps and links, in at most 120 lines
// (the rest lives in docs/), and every file it links to exists.
func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if n := strings.Count(text, "\n"); n > 120 {
		t.Errorf("README.md has %d lines, want at most 120: move detail into docs/", n)
	}
	for _, want := range []string{"\n    scripts/sqlbench run ", "\n    scripts/test ",
		"scripts/sqlbench run --quick"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
	for _, placeholder := range []string{"FIRST_RUN_FIGURES", "EXCERPT"} {
		if strings.Contains(text, placeholder) {
			t.Errorf("README.md still holds the placeholder %s", placeholder)
		}
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+)(#[^)]*)?\)`).FindAllStringSubmatch(text, -1) {
		if strings.Contains(m[1], "://") {
			continue
		}
		if _, err := os.Stat(filepath.Join("../..", m[1])); err != nil {
			t.Errorf("README.md links to %s: %v", m[1], err)
		}
	}
}
