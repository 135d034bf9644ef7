package sqlbench

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The longest line a source file may have: maxColumns columns, counting a
// tab as tabColumns columns (the tab width gofmt's users see in editors and
// code review) and every other character, whatever its bytes, as one.
const (
	maxColumns = 120
	tabColumns = 4
)

// columns is the width of a line under that rule.
func columns(line string) int {
	n := 0
	for _, r := range line {
		if r == '\t' {
			n += tabColumns
		} else {
			n++
		}
	}
	return n
}

// longLines returns "name:N: W columns" for each line of text wider than
// maxColumns, N counting from 1.
func longLines(name, text string) []string {
	var out []string
	for i, line := range strings.Split(text, "\n") {
		if w := columns(strings.TrimSuffix(line, "\r")); w > maxColumns {
			out = append(out, fmt.Sprintf("%s:%d: %d columns", name, i+1, w))
		}
	}
	return out
}

// TestLongLinesCountsTabsAndRunes checks the rule itself on lines just
// within and just over the limit.
func TestLongLinesCountsTabsAndRunes(t *testing.T) {
	fits := "\t\t" + strings.Repeat("é", maxColumns-2*tabColumns)
	over := "\t" + strings.Repeat("x", maxColumns-tabColumns+1)
	got := longLines("f.go", fits+"\n"+over+"\n"+fits+"x\n")
	want := []string{
		fmt.Sprintf("f.go:2: %d columns", maxColumns+1),
		fmt.Sprintf("f.go:3: %d columns", maxColumns+1),
	}
	if !slices.Equal(got, want) {
		t.Errorf("longLines = %q, want %q", got, want)
	}
}

// TestNoGoLineOver120Columns checks every Go file of the module (tests and
// testdata included) and the JDBC runner's Java sources: each line over the
// limit is named as file:line. docs/contributing.md says how to wrap them.
func TestNoGoLineOver120Columns(t *testing.T) {
	var over []string
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".java") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		over = append(over, longLines(filepath.ToSlash(path), string(b))...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d source files found: not run from the module's root?", files)
	}
	if len(over) > 0 {
		t.Errorf("%d lines over %d columns (a tab counted as %d):\n%s", len(over), maxColumns, tabColumns,
			strings.Join(over, "\n"))
	}
}
