package servers

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestUsersAreLiveProcessesOnly: a user record of a process that is gone
// (its pid and start time no longer name a running process) does not
// count, and is removed; this process's own record counts.
func TestUsersAreLiveProcessesOnly(t *testing.T) {
	dir := t.TempDir()
	s := &Server{Kind: KindPostgres, Dir: filepath.Join(dir, "sqb-x"), Port: 5999, Host: "127.0.0.1",
		Socket: "/tmp/x/.s.PGSQL.5999"}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	start, err := processStart(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	ud := usersDir(dir, s)
	os.MkdirAll(ud, 0o700)
	for _, o := range []owner{{PID: gone.Process.Pid, Start: start, Boot: bootID()},
		{PID: os.Getpid(), Start: start, Boot: bootID()}} {
		b, _ := json.Marshal(o)
		os.WriteFile(filepath.Join(ud, itoa(o.PID)+".json"), b, 0o600)
	}
	if got := Users(dir, s); !slices.Equal(got, []int{os.Getpid()}) {
		t.Errorf("Users = %v, want only this process %d", got, os.Getpid())
	}
	if _, err := os.Stat(filepath.Join(ud, itoa(gone.Process.Pid)+".json")); !os.IsNotExist(err) {
		t.Errorf("the record of a gone process is kept: %v", err)
	}
	// Endpoints that point at the server, and others.
	for _, c := range []struct {
		e    bench.Endpoint
		want bool
	}{
		{bench.Endpoint{Net: "tcp", Addr: "127.0.0.1:5999"}, true},
		{bench.Endpoint{Net: "tcp", Addr: "localhost:5999"}, true},
		{bench.Endpoint{Net: "tcp", Addr: "[::1]:5999"}, true},
		{bench.Endpoint{Net: "tcp", Addr: "127.0.0.1:5432"}, false},
		{bench.Endpoint{Net: "tcp", Addr: "10.1.2.3:5999"}, false},
		{bench.Endpoint{Net: "unix", Addr: "/tmp/x/.s.PGSQL.5999"}, true},
		{bench.Endpoint{Net: "unix", Addr: "/tmp/y/.s.PGSQL.5999"}, false},
	} {
		if got := s.at(c.e); got != c.want {
			t.Errorf("at(%v) = %v, want %v", c.e, got, c.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
