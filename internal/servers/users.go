package servers

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/procs"
)

// A session that runs on a server recorded in a state directory (one
// `sqlbench server start` started, given to `sqlbench run --dsn`) says so
// with a user file beside the server's state, <state>.users/<pid>.json,
// holding its owner record (pid, start time, boot id: see owner). Server
// stop refuses to stop a server with a live user unless forced: a session
// must not lose its server mid-run to another command.

// usersDir is the directory of s's user files in the state directory dir.
func usersDir(dir string, s *Server) string {
	return filepath.Join(dir, filepath.Base(s.Dir)+".users")
}

// Use records this process as a user of each live server recorded in dir
// that one of endpoints points at (its TCP port on a loopback address, or
// its unix socket), and returns a function that removes the records. A
// session calls it before it connects and the function when it is done.
func Use(dir string, endpoints []bench.Endpoint) (release func(), err error) {
	all, err := LoadStates(dir)
	var files []string
	release = func() {
		for _, f := range files {
			os.Remove(f)
		}
	}
	start, serr := processStart(os.Getpid())
	if serr != nil {
		return release, serr
	}
	rec, _ := json.Marshal(owner{PID: os.Getpid(), Start: start, Boot: bootID()})
	for _, s := range all {
		if !slices.ContainsFunc(endpoints, s.at) || !s.Alive() {
			continue
		}
		ud := usersDir(dir, s)
		f := filepath.Join(ud, strconv.Itoa(os.Getpid())+".json")
		if err := os.MkdirAll(ud, 0o700); err != nil {
			return release, fmt.Errorf("record the use of %s: %w", s.Kind, err)
		}
		if err := os.WriteFile(f, append(rec, '\n'), 0o600); err != nil {
			return release, fmt.Errorf("record the use of %s: %w", s.Kind, err)
		}
		files = append(files, f)
	}
	return release, err
}

// Recorded returns the live server recorded in the state directory dir
// (by sqlbench server start) that e points at, or nil.
func Recorded(dir string, e bench.Endpoint) *Server {
	all, _ := LoadStates(dir)
	for _, s := range all {
		if s.at(e) && s.Alive() {
			return s
		}
	}
	return nil
}

// at reports whether e points at s.
func (s *Server) at(e bench.Endpoint) bool {
	if e.Net == "unix" {
		return s.Socket != "" && filepath.Clean(e.Addr) == filepath.Clean(s.Socket)
	}
	host, port, err := net.SplitHostPort(e.Addr)
	if err != nil || port != strconv.Itoa(s.Port) {
		return false
	}
	ip := net.ParseIP(host)
	return host == "localhost" || host == s.Host || ip != nil && ip.IsLoopback()
}

// Users returns the pids of the live processes recorded as users of s in
// the state directory dir (see Use), and removes the records of those that
// are gone.
func Users(dir string, s *Server) []int {
	ud := usersDir(dir, s)
	entries, err := os.ReadDir(ud)
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		path := filepath.Join(ud, e.Name())
		var o owner
		b, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(b, &o)
		}
		if err == nil && o.PID > 0 && o.alive() {
			pids = append(pids, o.PID)
		} else {
			os.Remove(path) // its session is gone (or it is no record)
		}
	}
	os.Remove(ud) // once empty
	slices.Sort(pids)
	return pids
}

// commandOf names pid for a message: "pid 12 (sqlbench)", with its
// command's name only (its arguments may hold a password).
func commandOf(pid int) string {
	if st, err := procs.Stat(pid); err == nil {
		return fmt.Sprintf("pid %d (%s)", pid, st.Comm)
	}
	return "pid " + strconv.Itoa(pid)
}

// InUse describes the live users of s in the state directory dir, or ""
// when it has none: "postgres on port 5432 is in use by a live sqlbench
// session (pid 12 (sqlbench))".
func InUse(dir string, s *Server) string {
	pids := Users(dir, s)
	if len(pids) == 0 {
		return ""
	}
	var who []string
	for _, pid := range pids {
		who = append(who, commandOf(pid))
	}
	return fmt.Sprintf("%s on port %d is in use by a live sqlbench session (%s)", s.Kind, s.Port,
		strings.Join(who, "; "))
}
