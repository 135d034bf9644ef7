// Package textlayout lays out sqlbench's text for a terminal or a pipe: Wrap breaks a line at spaces within a
// width, and Table is the one table model of the reports, the CLI's lists and the dry runs, written as aligned
// text (WriteText, WriteTextWithin), with its last column wrapping under itself (WriteWrapped), in plain
// columns (WriteColumns), with its first column on lines of its own when too wide (WriteStacked), or as
// Markdown (WriteMarkdown); FormatValue and Thousands write the figures in them.
package textlayout

import (
	"strings"
	"unicode/utf8"
)

// Width is the width text is laid out in where the terminal's is not known
// (a pipe, a file).
const Width = 100

// Wrap breaks the one-line text s into lines of at most width runes
// at spaces (the spacing inside a line is kept; a word longer than a line
// stands alone), every line after the first starting with indent; each
// line ends with a newline.
func Wrap(s string, width int, indent string) string {
	var b strings.Builder
	line, start := []rune(strings.TrimRight(s, " ")), 0
	for len(line) > width {
		cut := -1
		for i := width; i > start; i-- {
			if line[i] == ' ' {
				cut = i
				break
			}
		}
		for i := width + 1; cut < 0 && i < len(line); i++ {
			if line[i] == ' ' {
				cut = i
			}
		}
		if cut < 0 {
			break
		}
		b.WriteString(strings.TrimRight(string(line[:cut]), " ") + "\n")
		line, start = []rune(indent+strings.TrimLeft(string(line[cut:]), " ")), utf8.RuneCountInString(indent)
	}
	b.WriteString(string(line) + "\n")
	return b.String()
}
