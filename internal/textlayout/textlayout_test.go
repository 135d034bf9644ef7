package textlayout

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrapKeepsLinesWithinTheWidth(t *testing.T) {
	got := Wrap("one two three four five six", 10, "  ")
	want := "one two\n  three\n  four\n  five six\n"
	if got != want {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
	if got := Wrap("a-word-longer-than-the-line b", 10, ""); got != "a-word-longer-than-the-line\nb\n" {
		t.Errorf("a long word: %q", got)
	}
}

func TestWriteTextWithinSplitsTheValueColumns(t *testing.T) {
	tb := Table{Title: "t", Header: []string{"row", "aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"}, Left: 1,
		Rows: [][]Cell{{Label("x"), {Text: "1", Bold: true}, {Text: "2"}, {Text: "3", Note: "±1%"}}}}
	var b strings.Builder
	if err := tb.WriteTextWithin(&b, 30); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "t (part 1 of 2)") || !strings.Contains(b.String(), "*1") {
		t.Errorf("not split in two, or the best unmarked:\n%s", b.String())
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if utf8.RuneCountInString(line) > 30 {
			t.Errorf("line wider than 30: %q", line)
		}
	}
}

func TestWriteStackedPutsWideRowsOnTwoLines(t *testing.T) {
	tb := Labels([]string{"CELL", "N"}, [][]string{{"abcd/efghijklmn/op", "1"}})
	var b strings.Builder
	if err := tb.WriteStacked(&b, 100); err != nil {
		t.Fatal(err)
	}
	if b.String() != "CELL                N\nabcd/efghijklmn/op  1\n" {
		t.Errorf("narrow table: %q", b.String())
	}
	b.Reset()
	if err := tb.WriteStacked(&b, 12); err != nil {
		t.Fatal(err)
	}
	want := "CELL\n    N\nabcd/\n  efghijklmn/op\n    1\n"
	if b.String() != want {
		t.Errorf("wide table: %q, want %q", b.String(), want)
	}
}

func TestWriteWrappedWrapsTheLastColumnUnderItself(t *testing.T) {
	tb := Labels([]string{"NAME", "DESCRIPTION"}, [][]string{{"x", strings.Repeat("word ", 12)}})
	var b strings.Builder
	if err := tb.WriteWrapped(&b, 40); err != nil {
		t.Fatal(err)
	}
	want := "NAME  DESCRIPTION\nx     word word word word word word word\n      word word word word word\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestEscapeMarkdown(t *testing.T) {
	if got := EscapeMarkdown("a|b<c\nd"); got != `a\|b&lt;c d` {
		t.Errorf("EscapeMarkdown = %q", got)
	}
}

func TestThousands(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 999: "999", 1000: "1,000", 1234567.4: "1,234,567", -12345: "-12,345",
	} {
		if got := Thousands(v); got != want {
			t.Errorf("Thousands(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestFormatValue(t *testing.T) {
	for v, want := range map[float64]string{12345.6: "12,346", 100: "100", 99.94: "99.9", 0.01234: "0.0123"} {
		if got := FormatValue(v); got != want {
			t.Errorf("FormatValue(%v) = %q, want %q", v, got, want)
		}
	}
	if got := FormatValue(math.NaN()); got != "-" {
		t.Errorf("FormatValue(NaN) = %q, want -", got)
	}
}
