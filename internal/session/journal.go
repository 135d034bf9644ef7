package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/journal"
)

// JournalPath is where the journal of a session writing results to
// results is kept: beside it, with the extension .journal.
func JournalPath(results string) string {
	return strings.TrimSuffix(results, filepath.Ext(results)) + ".journal"
}

// journaled is the part of a journal's header that lets a session be
// planned again: its configuration without the DSNs (no password is
// written), and which databases had one, to be given again on resume.
type journaled struct {
	Config Config
	DSNs   []bench.DB
}

// resumed is what a journal gives a resumed session.
type resumed struct {
	id     string
	replay map[SliceKey]Slice
}

// loadResume reads the journal cfg.Resume names and turns cfg into the
// configuration of the session that wrote it, with the DSNs cfg brings
// (or the environment's), the results file rewritten from the journal.
func loadResume(cfg *Config, env Host) (*resumed, error) {
	h, recs, err := journal.Read(cfg.Resume)
	if err != nil {
		return nil, InputError{err.Error()}
	}
	var j journaled
	if err := json.Unmarshal(h.Config, &j); err != nil || !ValidID(h.Session) {
		return nil, inputf("journal %s: its header is not one this sqlbench wrote", cfg.Resume)
	}
	if err := checkResults(h.Results, h.Session); err != nil {
		return nil, err
	}
	given := cfg.DSNs
	path, cache := cfg.Resume, cfg.Cache
	*cfg = j.Config
	cfg.Resume, cfg.Cache, cfg.Out, cfg.Force = path, cache, h.Results, true
	cfg.DSNs = map[bench.DB]string{}
	for _, db := range j.DSNs {
		d := given[db]
		if d == "" {
			d = env.Getenv(DSNEnv(db))
		}
		if d == "" {
			return nil, inputf("the session in %s ran on a %s server given by DSN: give it again (--dsn %s=DSN or $%s)",
				cfg.Resume, db, db, DSNEnv(db))
		}
		cfg.DSNs[db] = d
	}
	replay, err := replayOf(recs)
	if err != nil {
		return nil, InputError{err.Error()}
	}
	return &resumed{id: h.Session, replay: replay}, nil
}

// replayOf returns the slices of a journal's records, by key.
func replayOf(recs []journal.Record) (map[SliceKey]Slice, error) {
	replay := map[SliceKey]Slice{}
	for _, rec := range recs {
		res, err := rec.Result()
		if err != nil {
			return nil, err
		}
		replay[SliceKey{Cell: rec.Cell, Run: rec.Run, Slice: rec.Slice}] = Slice{Result: res, Latency: rec.Latency}
	}
	return replay, nil
}

// openJournal creates the session's journal (or, resumed, opens it to
// append): every slice measured is in it before it counts (journalSlice).
func (s *Session) openJournal(runs int) error {
	cfg := s.cfg
	if cfg.Resume != "" {
		jw, err := journal.Append(cfg.Resume)
		s.journal = jw
		return err
	}
	j := journaled{Config: *cfg}
	j.Config.DSNs = nil
	for db := range cfg.DSNs {
		j.DSNs = append(j.DSNs, db)
	}
	slices.Sort(j.DSNs)
	b, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	results := s.results.Name()
	s.journal, err = journal.Create(JournalPath(results),
		journal.Header{Session: s.id, Results: results, Runs: runs, Config: b})
	return err
}

// journalSlice keeps a measured slice in the journal, if the session has
// one.
func (s *Session) journalSlice(k SliceKey, sl Slice) error {
	if s.journal == nil {
		return nil
	}
	line, err := journal.Line(sl.Result)
	if err != nil {
		return err
	}
	return s.journal.Add(journal.Record{Cell: k.Cell, Run: k.Run, Slice: k.Slice, Line: line, Latency: sl.Latency})
}

// checkResults makes sure the results file a journal names is the one its
// session wrote (the session id of its header), or is not there yet: a
// resumed session takes its place, and must not take another's.
func checkResults(path, session string) error {
	set, err := benchfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return InputError{err.Error()}
	}
	if len(set.Results) == 0 {
		return nil // killed before its first run: nothing to take the place of
	}
	h, err := benchfile.ParseHeader(set.Results[0].Config)
	if err != nil {
		return inputf("%s: %v", path, err)
	}
	if h.SessionID != "" && h.SessionID != session { // no id: not a session's file, nothing to tell
		return inputf(
			"%s is the results of session %s, not of session %s whose journal this is: move it away to resume", path,
			h.SessionID, session)
	}
	return nil
}
