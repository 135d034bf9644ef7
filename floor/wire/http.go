package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
)

func init() { bench.RegisterHandleOpener("http", OpenHTTP, floor.CapHTTP) }

// httpSink is the server side of the "http" target: a net/http server on
// 127.0.0.1 whose handler reads the body with io.ReadAll and answers 200,
// as the published HTTP benchmark's handler does.
type httpSink struct {
	ln   net.Listener
	srv  *http.Server
	done chan error
	// requests and received count the requests served and the body bytes
	// read, for Settle.
	requests, received atomic.Uint64
}

// startHTTPSink serves on listen (see listenAt) until close.
func startHTTPSink(listen string) (*httpSink, error) {
	ln, err := listenAt(listen)
	if err != nil {
		return nil, err
	}
	s := &httpSink{ln: ln, done: make(chan error, 1)}
	// As the published server: the handler on a ServeMux at /test, a
	// server with net/http's defaults (no timeouts; it serves only this
	// process's client, on loopback).
	mux := http.NewServeMux()
	mux.HandleFunc("/test", s.handle)
	s.srv = &http.Server{Handler: mux} //nolint:gosec // loopback sink of this process's own client
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// handle reads the whole body with io.ReadAll and answers 200 with no body,
// as the published handler does; it also counts the request and its bytes.
func (s *httpSink) handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body: "+err.Error(), http.StatusInternalServerError)
		return
	}
	defer r.Body.Close()
	s.received.Add(uint64(len(body)))
	s.requests.Add(1)
	w.WriteHeader(http.StatusOK)
}

// close stops the server and its connections.
func (s *httpSink) close() error {
	err := s.srv.Close()
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// HTTPConn is the "http" target's handle (floor.Poster): a net/http client
// with a transport of its own, a copy of http.DefaultTransport (the
// published client is an http.Client{} on the default transport).
type HTTPConn struct {
	sink    *httpSink
	url     string
	tr      *http.Transport
	client  *http.Client
	body    *bytes.Reader
	headers http.Header
	// requests and sent count what Post sent, for Settle.
	requests, sent uint64
}

// OpenHTTP starts a net/http sink on 127.0.0.1 and makes a client for it:
// directly, or through an emulated link (see listenAt).
func OpenHTTP(ctx context.Context, cfg bench.Config) (bench.Handle, error) {
	sink, err := startHTTPSink(cfg.DSN)
	if err != nil {
		return nil, err
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	c := &HTTPConn{sink: sink, url: "http://" + dialAddr(cfg, sink.ln) + "/test",
		tr: tr, client: &http.Client{Transport: tr}, body: bytes.NewReader(nil),
		headers: http.Header{"Content-Type": []string{"application/octet-stream"}}}
	if err := c.Post(nil); err != nil { // the connection is made here, not in the first run
		c.Close()
		return nil, fmt.Errorf("first request: %w", err)
	}
	return c, nil
}

// Post sends p as the body of one POST the way the published client's
// sendBytes does: the body reader reset, a new request with the shared
// header map and the content length, client.Do, the response body closed
// unread, and the status checked for 200.
func (c *HTTPConn) Post(p []byte) error {
	c.body.Reset(p)
	req, err := http.NewRequest(http.MethodPost, c.url, c.body)
	if err != nil {
		return fmt.Errorf("new request: %w", err)
	}
	req.Header = c.headers
	req.ContentLength = int64(len(p))
	resp, err := c.client.Do(req)
	if err != nil {
		return fmt.Errorf("POST %d bytes: %w", len(p), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %d bytes: status %s", len(p), resp.Status)
	}
	c.requests++
	c.sent += uint64(len(p))
	return nil
}

// Settle checks that the server counted every request Post sent and every
// body byte: the handler runs before its answer, so the counts are final
// once Post has returned.
func (c *HTTPConn) Settle() error {
	if r, b := c.sink.requests.Load(), c.sink.received.Load(); r != c.requests || b != c.sent {
		return fmt.Errorf("the server read %d requests of %d bytes in all, %d of %d bytes were sent", r, b, c.requests,
			c.sent)
	}
	return nil
}

// Close closes the client's connections and stops the sink.
func (c *HTTPConn) Close() error {
	c.tr.CloseIdleConnections()
	return c.sink.close()
}
