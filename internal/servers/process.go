package servers

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// account is the system user a server runs as when this process is root.
type account struct {
	name     string
	uid, gid int
}

// serverAccount returns the system user for kind when running as root, and
// nil (run as ourselves) otherwise.
func serverAccount(kind Kind) (*account, error) {
	if os.Geteuid() != 0 || kind == KindTiDB {
		// tidb-server runs as root, and its binary is in root's cache.
		return nil, nil
	}
	name := "mysql"
	if kind.Base() == KindPostgres {
		name = "postgres"
	}
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("running as root needs the %q system user, which the %s package creates: %w",
			name, packageName(kind), err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("system user %q has a non-numeric uid %q or gid %q", name, u.Uid, u.Gid)
	}
	return &account{name: name, uid: uid, gid: gid}, nil
}

// apply makes a child process run as the account; a nil account leaves the
// child running as this process's user.
func (a *account) apply(sys *syscall.SysProcAttr) {
	if a != nil {
		sys.Credential = &syscall.Credential{Uid: uint32(a.uid), Gid: uint32(a.gid)}
	}
}

// chown gives path to the account; a nil account leaves it alone.
func (a *account) chown(path string) error {
	if a == nil {
		return nil
	}
	if err := os.Chown(path, a.uid, a.gid); err != nil {
		return fmt.Errorf("give %s to user %s: %w", path, a.name, err)
	}
	return nil
}

// maxSocketPath keeps socket paths well below the 108-byte sun_path limit.
const maxSocketPath = 100

// makeDir creates the server's private directory (mode 0700, owned by the
// server's account) under parent, after checking that the account can reach
// it and that socket paths inside it stay short.
func makeDir(parent string, acct *account) (string, error) {
	if parent == "" {
		parent = os.TempDir()
	}
	parent, err := filepath.Abs(parent)
	if err != nil {
		return "", fmt.Errorf("server directory parent: %w", err)
	}
	if fi, err := os.Stat(parent); err != nil {
		return "", fmt.Errorf("server directory parent: %w", err)
	} else if !fi.IsDir() {
		return "", fmt.Errorf("server directory parent %s is not a directory", parent)
	}
	// "sqb-" plus up to 10 random digits, then the longest socket name.
	if n := len(filepath.Join(parent, "sqb-0123456789", ".s.PGSQL.65535")); n > maxSocketPath {
		return "", fmt.Errorf("parent directory %s is too long for unix socket paths (%d bytes, limit %d): choose a "+
			"shorter one", parent, n, maxSocketPath)
	}
	if err := acct.canTraverse(parent); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(parent, "sqb-")
	if err != nil {
		return "", fmt.Errorf("create server directory: %w", err)
	}
	if err := acct.chown(dir); err != nil {
		os.Remove(dir)
		return "", err
	}
	return dir, nil
}

// canTraverse checks that the account may search every directory from path
// up to the root; nil means the caller's own user, which is not checked.
func (a *account) canTraverse(path string) error {
	if a == nil {
		return nil
	}
	for p := path; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("server directory parent: %w", err)
		}
		mode := fi.Mode().Perm()
		bit := mode & 0o001
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			switch {
			case int(st.Uid) == a.uid:
				bit = mode & 0o100
			case int(st.Gid) == a.gid:
				bit = mode & 0o010
			}
		}
		if bit == 0 {
			return fmt.Errorf("user %s cannot enter %s (mode %v): choose a Parent it can reach, such as /tmp", a.name,
				p, mode)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// childEnv is the environment of every child: no PG*/MYSQL* variables from
// the caller, and HOME and TMPDIR inside the server's directory.
func childEnv(dir string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	}
	return []string{"PATH=" + path, "HOME=" + dir, "TMPDIR=" + dir, "LC_ALL=C", "LANG=C"}
}

// runTool runs a set-up program (mariadb-install-db, initdb) to completion,
// as the server's account, with its output in logPath. Cancelling ctx kills
// its whole process group.
func runTool(ctx context.Context, r *run, logPath, path string, args ...string) error {
	out, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w", logPath, err)
	}
	defer out.Close()
	mark := markLogs([]string{logPath})
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = r.srv.Dir, childEnv(r.srv.Dir), out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r.acct.apply(cmd.SysProcAttr)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			// The tool's own children (mariadb-install-db runs mariadbd
			// --bootstrap) were killed with the group but may still be
			// exiting: return only once they are gone.
			waitGroupGone(cmd.Process.Pid, 2*time.Second)
			return fmt.Errorf("%s interrupted: %w", filepath.Base(path), ctx.Err())
		}
		return fmt.Errorf("%s failed (%v): %s", filepath.Base(path), err,
			firstNonEmpty(mark.lastLine(r.srv.Password), "no output"))
	}
	return nil
}

// waitGroupGone waits, at most limit, until no live process is left in
// process group pgid (zombies awaiting their reaper do not count).
func waitGroupGone(pgid int, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) && groupAlive(pgid) {
		time.Sleep(10 * time.Millisecond)
	}
}

// groupAlive reports whether a process of group pgid is still running.
func groupAlive(pgid int) bool {
	all, _ := procs.PIDs()
	for _, pid := range all {
		if st, err := procs.Stat(pid); err == nil && st.PGRP == pgid && st.State != "Z" && pid != os.Getpid() {
			return true
		}
	}
	return false
}

// child is a launched server process.
type child struct {
	pid  int
	done chan struct{} // closed once the process has exited and been reaped
}

func (c *child) exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// serverLog is the file receiving the server's standard output and error.
const serverLog = "server.log"

// launch starts the server process as the server's account. Attached, it
// gets its own process group and SIGKILL when this process dies; detached,
// its own session. A goroutine reaps it when it exits.
func launch(r *run, path string, args []string) (*child, error) {
	logPath := filepath.Join(r.srv.Dir, serverLog)
	out, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", logPath, err)
	}
	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = r.srv.Dir, childEnv(r.srv.Dir), out, out
	sys := &syscall.SysProcAttr{}
	if r.opt.Detach {
		sys.Setsid = true
	} else {
		sys.Setpgid = true
		sys.Pdeathsig = syscall.SIGKILL
	}
	r.acct.apply(sys)
	cmd.SysProcAttr = sys
	c := &child{done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		defer out.Close()
		// The parent-death signal fires when the thread that forked the
		// child exits, so keep that thread until the child is gone.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		c.pid = cmd.Process.Pid
		started <- nil
		_ = cmd.Wait() // the exit status is in the server's log
		close(c.done)
	}()
	if err := <-started; err != nil {
		return nil, fmt.Errorf("run %s: %w", path, err)
	}
	return c, nil
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port on 127.0.0.1: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return 0, fmt.Errorf("find a free port on 127.0.0.1: %w", err)
	}
	return port, nil
}

// randomPassword returns n random letters and digits.
func randomPassword(n int) (string, error) {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	limit := big.NewInt(int64(len(alnum)))
	for i := range b {
		v, err := rand.Int(rand.Reader, limit)
		if err != nil {
			return "", fmt.Errorf("generate password: %w", err)
		}
		b[i] = alnum[v.Int64()]
	}
	return string(b), nil
}
