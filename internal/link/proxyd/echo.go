package proxyd

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// EchoReady begins the line an echo process writes on stdout once it
// listens: "echo ADDR".
const EchoReady = "echo "

// Echo runs a loopback echo sink, a process apart from the prober and the
// proxy so that a probed round trip wakes processes as a query's does,
// until its parent is gone or it is told to stop, and returns the exit
// status.
func Echo(stdout, stderr io.Writer) int {
	parent := os.Getppid()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(stderr, "sqlbench link echo:", err)
		return 1
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				io.Copy(c, c)
			}()
		}
	}()
	fmt.Fprintf(stdout, "%s%s\n", EchoReady, ln.Addr())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-sig:
			ln.Close()
			return 0
		case <-tick.C:
			if os.Getppid() != parent {
				ln.Close()
				return 0
			}
		}
	}
}
