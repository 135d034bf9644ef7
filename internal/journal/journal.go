// Package journal keeps a session's finished work on disk as it happens:
// one JSON record per measured slice, appended and synced before the
// slice counts, after a header that says how to plan the session again.
// A session interrupted at any point (Ctrl-C, a crash of sqlbench or of the
// machine) leaves a journal from which it can be resumed: the same plan,
// the journaled slices replayed, only the missing ones measured.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Version is the journal format this package writes and reads.
const Version = 1

// Header is a journal's first record.
type Header struct {
	Version int `json:"journal"`
	// Session is the session id: the prefix of its tables.
	Session string `json:"session"`
	// Results is the session's results file.
	Results string `json:"results"`
	// Runs is the number of runs the session planned.
	Runs int `json:"runs"`
	// Config is the session's configuration as the session encoded it
	// (without passwords).
	Config json.RawMessage `json:"config"`
}

// Record is one measured slice of one run of one cell.
type Record struct {
	Cell  string `json:"cell"`
	Run   int    `json:"run"`
	Slice int    `json:"slice"`
	// Line is the slice's result line in the Go benchmark format.
	Line string `json:"line"`
	// Latency is the slice's latency histogram as the runner sent it.
	Latency string `json:"latency,omitempty"`
}

// Writer appends records to a journal.
type Writer struct {
	f *os.File
}

// Create creates the journal at path (refusing one that exists) and
// writes h.
func Create(path string, h Header) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	w := &Writer{f: f}
	h.Version = Version
	if err := w.write(h); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return w, nil
}

// Append opens the journal at path to add records to (a resumed session).
func Append(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Writer{f: f}, nil
}

// Add appends r and syncs the file: when Add returns nil, r survives a
// crash of the process or the machine.
func (w *Writer) Add(r Record) error { return w.write(r) }

func (w *Writer) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := w.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Name returns the journal's path.
func (w *Writer) Name() string { return w.f.Name() }

// Close closes the journal.
func (w *Writer) Close() error { return w.f.Close() }

// Read reads the journal at path: its header and every complete record. A
// last line cut off by a crash is dropped (its slice is measured again); a
// bad line elsewhere is an error.
func Read(path string) (Header, []Record, error) {
	var h Header
	f, err := os.Open(path)
	if err != nil {
		return h, nil, fmt.Errorf("journal %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	r := bufio.NewReader(f)
	first, err := r.ReadBytes('\n')
	if err != nil || json.Unmarshal(first, &h) != nil || h.Version == 0 {
		return h, nil, fmt.Errorf("journal %s: not a sqlbench journal", path)
	}
	if h.Version != Version {
		return h, nil, fmt.Errorf("journal %s: version %d, this sqlbench reads %d", path, h.Version, Version)
	}
	var recs []Record
	for n := 2; ; n++ {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return h, recs, nil // a line without its newline was cut off
		}
		if err != nil {
			return h, nil, fmt.Errorf("journal %s: %w", path, err)
		}
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil || rec.Cell == "" || rec.Run < 1 || rec.Slice < 1 {
			return h, nil, fmt.Errorf("journal %s:%d: a bad record", path, n)
		}
		recs = append(recs, rec)
	}
}

// Line returns r as a result line, for a Record.
func Line(r *benchfmt.Result) (string, error) {
	var buf bytes.Buffer
	w := benchfmt.NewWriter(&buf)
	c := *r
	c.Config = nil
	if err := w.Write(&c); err != nil {
		return "", err
	}
	return strings.TrimSpace(buf.String()), nil
}

// Result parses a Record's line.
func (r Record) Result() (*benchfmt.Result, error) {
	rd := benchfmt.NewReader(strings.NewReader(r.Line+"\n"), "journal")
	for rd.Scan() {
		if res, ok := rd.Result().(*benchfmt.Result); ok {
			return res.Clone(), nil
		}
	}
	return nil, fmt.Errorf("journal: a record of %s run %d slice %d holds no result", r.Cell, r.Run, r.Slice)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
