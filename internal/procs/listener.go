package procs

import (
	"fmt"
	"net"
	"strconv"

	"github.com/prometheus/procfs"
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
	fs, err := FS("")
	if err != nil {
		return 0, fmt.Errorf("find the server: %w", err)
	}
	all, err := fs.AllProcs()
	if err != nil {
		return 0, fmt.Errorf("find the server: %w", err)
	}
	want := "socket:[" + strconv.FormatUint(inode, 10) + "]"
	for _, p := range all {
		targets, err := p.FileDescriptorTargets()
		if err != nil {
			continue // another user's process
		}
		for _, l := range targets {
			if l == want {
				return p.PID, nil
			}
		}
	}
	return 0, fmt.Errorf("no process of this user owns the socket listening on %s", addr)
}

// listenInode returns the inode of the socket listening on addr.
func listenInode(network, addr string) (uint64, error) {
	fs, err := FS("")
	if err != nil {
		return 0, fmt.Errorf("find the server: %w", err)
	}
	if network == "unix" {
		u, err := fs.NetUNIX()
		if err != nil {
			return 0, fmt.Errorf("find the server: %w", err)
		}
		for _, l := range u.Rows {
			if l.Path == addr {
				return l.Inode, nil
			}
		}
		return 0, fmt.Errorf("find the server: no socket %s in /proc/net/unix", addr)
	}
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0, fmt.Errorf("find the server: %w", err)
	}
	port, err := strconv.ParseUint(p, 10, 16)
	if err != nil {
		return 0, fmt.Errorf("find the server: bad port %q", p)
	}
	const listen = 0x0A // TCP_LISTEN
	for _, read := range []func() (procfs.NetTCP, error){fs.NetTCP, fs.NetTCP6} {
		lines, err := read()
		if err != nil {
			continue // no IPv6, say
		}
		for _, l := range lines {
			if l.LocalPort == port && l.St == listen {
				return l.Inode, nil
			}
		}
	}
	return 0, fmt.Errorf("nothing listens on port %d on this machine", port)
}
