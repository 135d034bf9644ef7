package servers

import (
	"io"
	"os"
	"regexp"
	"strings"
)

// logMark remembers the sizes of log files, so that what a later attempt
// appended can be read on its own.
type logMark map[string]int64

// markLogs records the current size of each path (0 if it does not exist).
func markLogs(paths []string) logMark {
	m := logMark{}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			m[p] = fi.Size()
		} else {
			m[p] = 0
		}
	}
	return m
}

// maxLogRead bounds how much of each log is read for an error message.
const maxLogRead = 256 << 10

// text returns what was appended to the marked files since the mark.
func (m logMark) text() string {
	var b strings.Builder
	for p, off := range m {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		if fi, err := f.Stat(); err == nil && fi.Size()-off > maxLogRead {
			off = fi.Size() - maxLogRead
		}
		if _, err := f.Seek(off, io.SeekStart); err == nil {
			data, _ := io.ReadAll(io.LimitReader(f, maxLogRead))
			b.Write(data)
			b.WriteByte('\n')
		}
		f.Close()
	}
	return b.String()
}

// contains reports whether the new log text contains s.
func (m logMark) contains(s string) bool { return strings.Contains(m.text(), s) }

// lastLine returns the last meaningful line of the new log text, without its
// timestamp and with secret masked: the last error line if there is one,
// else the last non-empty line.
func (m logMark) lastLine(secret string) string {
	return meaningfulLine(m.text(), secret)
}

func meaningfulLine(text, secret string) string {
	// noise: error-looking lines that never explain a failure; strong and
	// weak: lines that report one, tried in that order; timestamp: MariaDB's
	// and PostgreSQL's line prefixes.
	noise := regexp.MustCompile(`(?i)\] Aborting$|database system is (starting up|shutting down)|^FATAL:\s*$`)
	strong := regexp.MustCompile(`\[ERROR\]|\bFATAL\b|\bPANIC\b|\bERROR:|(?i)\berror:`)
	weak := regexp.MustCompile(`(?i)can't|cannot|could not|failed|\berror\b`)
	timestamp := regexp.MustCompile(`^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?( [A-Z]{2,5})?( \[\d+\])?( \d+)? *`)
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(timestamp.ReplaceAllString(strings.TrimSpace(l), ""))
		if l != "" && !noise.MatchString(l) {
			lines = append(lines, l)
		}
	}
	pick := ""
	for _, re := range []*regexp.Regexp{strong, weak, regexp.MustCompile(`.`)} {
		for i := len(lines) - 1; i >= 0 && pick == ""; i-- {
			if re.MatchString(lines[i]) {
				pick = lines[i]
			}
		}
		if pick != "" {
			break
		}
	}
	pick = oneLine(pick)
	if secret != "" {
		pick = strings.ReplaceAll(pick, secret, "********")
	}
	if len(pick) > 300 {
		pick = pick[:300] + "..."
	}
	return pick
}
