// Package wire implements the transport floor's targets (see package
// floor): raw TCP ("tcp", floor.Wire) and HTTP/1.1 through net/http
// ("http", floor.Poster). Each opener starts a sink server goroutine inside
// the runner process on 127.0.0.1:0 — loopback only — and connects a
// client to it; the handle's Close stops both. No bytes leave the machine
// and no database is involved: what these targets measure is the cost of
// moving bytes through the kernel's loopback and Go's net (and net/http)
// stack, the floor under every networked driver number.
package wire

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
)

func init() { bench.RegisterHandleOpener("tcp", OpenTCP, floor.CapWire) }

// Both targets' handles are what the floor's workloads type-assert.
var (
	_ floor.Wire   = (*TCPConn)(nil)
	_ floor.Poster = (*HTTPConn)(nil)
)

// Connection modes: the first byte a client writes on a connection to the
// TCP sink.
const (
	modeWrite = 'W' // raw bytes, read and dropped, no answer
	modeEcho  = 'E' // every byte written back
)

// sinkBuf is the size of the sink's read buffer on the echo connection.
const sinkBuf = 256 << 10

// rawReadBuf is the read buffer of the sink's write-mode connections: the
// published TCP server reads each connection through a bufio.Reader into a
// 4096-byte buffer and drops what it read.
const rawReadBuf = 4096

// settleTimeout bounds how long Settle waits for the sink to read what was
// sent.
const settleTimeout = time.Minute

// tcpSink is the server side of the "tcp" target: a listener on 127.0.0.1
// and one goroutine per accepted connection.
type tcpSink struct {
	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn // accepted, closed by close
	// received counts the bytes read on write-mode connections.
	received atomic.Uint64
}

// startTCPSink listens on listen (see listenAt) and serves it until close.
func startTCPSink(listen string) (*tcpSink, error) {
	ln, err := listenAt(listen)
	if err != nil {
		return nil, err
	}
	s := &tcpSink{ln: ln}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// accept serves connections until the listener is closed.
func (s *tcpSink) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return // closed
		}
		s.mu.Lock()
		s.conns = append(s.conns, c)
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer c.Close()
			s.serve(c)
		}()
	}
}

// serve runs one connection until the client closes it. Its loops allocate
// nothing: the buffers are made once per connection.
func (s *tcpSink) serve(c net.Conn) {
	mode := make([]byte, 1)
	if _, err := io.ReadFull(c, mode); err != nil {
		return
	}
	if mode[0] == modeEcho {
		buf := make([]byte, sinkBuf)
		for {
			n, err := c.Read(buf)
			if n > 0 {
				if _, werr := c.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}
	// What the published server does: read through a bufio.Reader into a
	// 4096-byte buffer, drop it, answer nothing. The count is what Settle
	// checks after a run.
	r := bufio.NewReader(c)
	buf := make([]byte, rawReadBuf)
	for {
		n, err := r.Read(buf)
		s.received.Add(uint64(n))
		if err != nil {
			return
		}
	}
}

// close stops the listener and every connection, and waits for the
// goroutines.
func (s *tcpSink) close() error {
	err := s.ln.Close()
	s.mu.Lock()
	for _, c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

// TCPConn is the "tcp" target's handle (floor.Wire): two client
// connections to its own sink, one that only writes (Send) and one echoing
// (RoundTrip).
type TCPConn struct {
	sink       *tcpSink
	send, echo net.Conn
	// w buffers send as the published client does (bufio.NewWriter).
	w *bufio.Writer
	// sent is the bytes Send wrote, which the sink must read (Settle).
	sent uint64
	// settleWait bounds Settle's wait (settleTimeout).
	settleWait time.Duration
	back       []byte // echo read buffer, grown to the largest message
}

// OpenTCP starts a sink on 127.0.0.1 and connects to it: directly, or
// through an emulated link (see listenAt).
func OpenTCP(ctx context.Context, cfg bench.Config) (bench.Handle, error) {
	sink, err := startTCPSink(cfg.DSN)
	if err != nil {
		return nil, err
	}
	c := &TCPConn{sink: sink, settleWait: settleTimeout}
	to := dialAddr(cfg, sink.ln)
	if c.send, err = dialMode(ctx, to, modeWrite); err == nil {
		c.w = bufio.NewWriter(c.send)
		c.echo, err = dialMode(ctx, to, modeEcho)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// listenAt listens where a sink is to: a free loopback port, or, under
// an emulated link (sqlbench run --link), the loopback address the session
// made the link's proxy forward to, given as the cell's DSN (cfg.DSN, a
// field no floor target otherwise uses); cfg.Server.Addr is then the
// proxy's, where the client connects (dialAddr).
func listenAt(addr string) (net.Listener, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil || net.ParseIP(host) == nil || !net.ParseIP(host).IsLoopback() {
		return nil, fmt.Errorf("the sink's address %q is not on loopback", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	return ln, nil
}

// dialAddr is where a floor target's client connects: its sink ln, or the
// link's proxy in front of it.
func dialAddr(cfg bench.Config, ln net.Listener) string {
	if cfg.DSN != "" && cfg.Server.Addr != "" {
		return cfg.Server.Addr
	}
	return ln.Addr().String()
}

// dialMode connects to the sink at addr and says which mode it wants.
func dialMode(ctx context.Context, addr string, mode byte) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("connect to the sink: %w", err)
	}
	if _, err := c.Write([]byte{mode}); err != nil {
		c.Close()
		return nil, fmt.Errorf("greet the sink: %w", err)
	}
	return c, nil
}

// Send writes p and flushes it, as the published client's send does
// (bufio.Writer Write, then Flush: one write on the socket); nothing comes
// back. It allocates nothing.
func (c *TCPConn) Send(p []byte) error {
	if _, err := c.w.Write(p); err != nil {
		return fmt.Errorf("send %d bytes: %w", len(p), err)
	}
	if err := c.w.Flush(); err != nil {
		return fmt.Errorf("send %d bytes: %w", len(p), err)
	}
	c.sent += uint64(len(p))
	return nil
}

// Settle waits until the sink has read every byte Send wrote, and fails if
// it has not within a minute or has read more.
func (c *TCPConn) Settle() error {
	deadline := time.Now().Add(c.settleWait)
	for {
		got := c.sink.received.Load()
		switch {
		case got == c.sent:
			return nil
		case got > c.sent:
			return fmt.Errorf("the sink read %d bytes in all, %d were sent", got, c.sent)
		case time.Now().After(deadline):
			return fmt.Errorf("the sink read %d bytes in all within %s, %d were sent", got, c.settleWait, c.sent)
		}
		time.Sleep(time.Millisecond)
	}
}

// RoundTrip writes p on the echo connection and reads it back. It allocates
// nothing once its buffer has grown to len(p).
func (c *TCPConn) RoundTrip(p []byte) error {
	if cap(c.back) < len(p) {
		c.back = make([]byte, len(p))
	}
	back := c.back[:len(p)]
	if _, err := c.echo.Write(p); err != nil {
		return fmt.Errorf("write %d bytes: %w", len(p), err)
	}
	if _, err := io.ReadFull(c.echo, back); err != nil {
		return fmt.Errorf("read the echo: %w", err)
	}
	if !bytes.Equal(back, p) {
		return fmt.Errorf("the echo of %d bytes differs from what was sent", len(p))
	}
	return nil
}

// Close closes the client connections and stops the sink.
func (c *TCPConn) Close() error {
	var errs []error
	for _, nc := range []net.Conn{c.send, c.echo} {
		if nc != nil {
			errs = append(errs, nc.Close())
		}
	}
	if c.sink != nil {
		errs = append(errs, c.sink.close())
	}
	return errors.Join(errs...)
}
