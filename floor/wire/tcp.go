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
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"

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
	modeSink = 'S' // framed messages, each acknowledged with the running byte count
	modeEcho = 'E' // every byte written back
)

// sinkBuf is the size of the sink's read buffer: one read drains up to this
// much of a message.
const sinkBuf = 256 << 10

// tcpSink is the server side of the "tcp" target: a listener on 127.0.0.1
// and one goroutine per accepted connection.
type tcpSink struct {
	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn // accepted, closed by close
}

// startTCPSink listens on a free loopback port and serves it until close.
func startTCPSink() (*tcpSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
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

// serve runs one connection until the client closes it. Its loop allocates
// nothing: the buffers are made once per connection.
func (s *tcpSink) serve(c net.Conn) {
	buf := make([]byte, sinkBuf)
	if _, err := io.ReadFull(c, buf[:1]); err != nil {
		return
	}
	if buf[0] == modeEcho {
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
	hdr := make([]byte, 8)
	var total uint64
	for {
		if _, err := io.ReadFull(c, hdr); err != nil {
			return
		}
		left := binary.LittleEndian.Uint64(hdr)
		for left > 0 {
			n, err := c.Read(buf[:min(left, uint64(len(buf)))])
			left -= uint64(n)
			total += uint64(n)
			if err != nil {
				return
			}
		}
		binary.LittleEndian.PutUint64(hdr, total)
		if _, err := c.Write(hdr); err != nil {
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
// connections to its own sink, one framed (Send) and one echoing
// (RoundTrip).
type TCPConn struct {
	sink       *tcpSink
	send, echo net.Conn
	// sent is the payload bytes sent on send, which the sink's
	// acknowledgement must match.
	sent uint64
	hdr  []byte      // the 8-byte length of the message being sent
	ack  []byte      // the sink's 8-byte acknowledgement
	vec  [2][]byte   // hdr and the payload, written with one writev
	bufs net.Buffers // consumed by each write; reset from vec
	back []byte      // echo read buffer, grown to the largest message
}

// OpenTCP starts a sink on 127.0.0.1 and connects to it. cfg is not
// consulted: the target always speaks to its own sink.
func OpenTCP(ctx context.Context, cfg bench.Config) (bench.Handle, error) {
	sink, err := startTCPSink()
	if err != nil {
		return nil, err
	}
	c := &TCPConn{sink: sink, hdr: make([]byte, 8), ack: make([]byte, 8)}
	if c.send, err = dialMode(ctx, sink.ln.Addr().String(), modeSink); err == nil {
		c.echo, err = dialMode(ctx, sink.ln.Addr().String(), modeEcho)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
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

// Send writes p as one message (length, then payload, in one writev) and
// waits for the sink's acknowledgement. It allocates nothing.
func (c *TCPConn) Send(p []byte) error {
	binary.LittleEndian.PutUint64(c.hdr, uint64(len(p)))
	c.vec[0], c.vec[1] = c.hdr, p
	c.bufs = c.vec[:]
	if _, err := c.bufs.WriteTo(c.send); err != nil {
		return fmt.Errorf("send %d bytes: %w", len(p), err)
	}
	c.vec[1] = nil // do not keep the payload alive
	c.sent += uint64(len(p))
	if _, err := io.ReadFull(c.send, c.ack); err != nil {
		return fmt.Errorf("read the sink's acknowledgement: %w", err)
	}
	if got := binary.LittleEndian.Uint64(c.ack); got != c.sent {
		return fmt.Errorf("the sink acknowledged %d bytes in all, %d were sent", got, c.sent)
	}
	return nil
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
