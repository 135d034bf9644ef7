package proccpu

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Listener returns the pid of the process on this machine that listens on
// addr: a TCP "host:port" (any local address on that port) or, for network
// "unix", a socket path. It reads /proc/net/{tcp,tcp6,unix} for the
// listening socket's inode and /proc/*/fd for its owner, so it finds only
// processes this user may inspect.
func Listener(network, addr string) (int, error) {
	inode, err := listenInode(network, addr)
	if err != nil {
		return 0, err
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, fmt.Errorf("find the server: %w", err)
	}
	want := "socket:[" + inode + "]"
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", e.Name(), "fd"))
		if err != nil {
			continue // another user's process
		}
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join("/proc", e.Name(), "fd", fd.Name())); err == nil && l == want {
				return pid, nil
			}
		}
	}
	return 0, fmt.Errorf("no process of this user owns the socket listening on %s", addr)
}

// listenInode returns the inode of the socket listening on addr.
func listenInode(network, addr string) (string, error) {
	if network == "unix" {
		return scan("/proc/net/unix", func(f []string) (string, bool) {
			// Num RefCount Protocol Flags Type St Inode Path
			if len(f) < 8 {
				return "", false
			}
			return f[6], f[7] == addr
		})
	}
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("find the server: %w", err)
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		return "", fmt.Errorf("find the server: bad port %q", p)
	}
	hexPort := fmt.Sprintf(":%04X", port)
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		ino, err := scan(file, func(f []string) (string, bool) {
			// sl local_address rem_address st ... inode(9)
			if len(f) < 10 {
				return "", false
			}
			return f[9], strings.HasSuffix(f[1], hexPort) && f[3] == "0A"
		})
		if err == nil {
			return ino, nil
		}
	}
	return "", fmt.Errorf("nothing listens on port %d on this machine", port)
}

// scan returns the first match of a /proc/net table.
func scan(file string, match func([]string) (string, bool)) (string, error) {
	fh, err := os.Open(file)
	if err != nil {
		return "", fmt.Errorf("find the server: %w", err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Scan() // header
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 7 {
			continue
		}
		if ino, ok := match(f); ok {
			return ino, nil
		}
	}
	return "", fmt.Errorf("no listening socket %s in %s", file, file)
}
