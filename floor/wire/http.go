package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
)

func init() { bench.RegisterHandleOpener("http", OpenHTTP, floor.CapHTTP) }

// receivedHeader carries the byte count the sink read from a request body.
const receivedHeader = "Sqlbench-Received"

// httpSink is the server side of the "http" target: a net/http server on
// 127.0.0.1 whose handler drains the body and answers 204.
type httpSink struct {
	ln   net.Listener
	srv  *http.Server
	done chan error
	// bufs holds the handler's read buffers, reused across requests.
	bufs sync.Pool
}

// startHTTPSink serves on a free loopback port until close.
func startHTTPSink() (*httpSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	s := &httpSink{ln: ln, done: make(chan error, 1)}
	s.bufs.New = func() any { b := make([]byte, sinkBuf); return &b }
	s.srv = &http.Server{Handler: http.HandlerFunc(s.handle), ReadHeaderTimeout: time.Minute}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// handle drains the request body through a large buffer (io.Discard would
// read it 8 KB at a time) and answers 204 with the count it read.
func (s *httpSink) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	bp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(bp)
	var n int64
	for {
		k, err := r.Body.Read(*bp)
		n += int64(k)
		if err == io.EOF {
			break
		}
		if err != nil {
			http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
			return
		}
	}
	w.Header().Set(receivedHeader, strconv.FormatInt(n, 10))
	w.WriteHeader(http.StatusNoContent)
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
// with its own transport, keeping one connection alive to its own sink.
type HTTPConn struct {
	ctx    context.Context
	sink   *httpSink
	url    string
	tr     *http.Transport
	client *http.Client
	body   bytes.Reader
}

// OpenHTTP starts a net/http sink on 127.0.0.1 and makes a client for it.
// cfg is not consulted. The client is net/http's with its defaults, but for
// no proxy and no compression, and one idle connection kept.
func OpenHTTP(ctx context.Context, cfg bench.Config) (bench.Handle, error) {
	sink, err := startHTTPSink()
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 1, IdleConnTimeout: time.Hour}
	c := &HTTPConn{ctx: context.WithoutCancel(ctx), sink: sink, url: "http://" + sink.ln.Addr().String() + "/sink",
		tr: tr, client: &http.Client{Transport: tr}}
	if err := c.Post(nil); err != nil { // the connection is made here, not in the first run
		c.Close()
		return nil, fmt.Errorf("first request: %w", err)
	}
	return c, nil
}

// Post sends p as the body of one POST and checks the answer: 204, and the
// sink's count equal to len(p).
func (c *HTTPConn) Post(p []byte) error {
	c.body.Reset(p)
	req, err := http.NewRequestWithContext(c.ctx, http.MethodPost, c.url, &c.body)
	if err != nil {
		return fmt.Errorf("new request: %w", err)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return fmt.Errorf("POST %d bytes: %w", len(p), err)
	}
	_, err = io.Copy(io.Discard, resp.Body) // drained, so the connection is reused
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("POST %d bytes: status %s", len(p), resp.Status)
	}
	got := resp.Header.Get(receivedHeader)
	if n, err := strconv.Atoi(got); err != nil || n != len(p) {
		return fmt.Errorf("the sink read %q bytes, %d were sent", got, len(p))
	}
	return nil
}

// Close closes the client's connections and stops the sink.
func (c *HTTPConn) Close() error {
	c.tr.CloseIdleConnections()
	return c.sink.close()
}
