// Package proxyd is the link emulator's process: a Toxiproxy server
// (github.com/Shopify/toxiproxy/v2, pinned by go.mod) with sqlbench's own
// microsecond delay toxic, its API on a free loopback port. sqlbench starts
// it as a process of its own by running its own executable with
// link.ProxyEnv set (package link), so that the proxy's CPU is neither the
// runner's nor the server's and the proxy dies with its owner.
package proxyd

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/Shopify/toxiproxy/v2/collectors"
)

// Ready begins the line the process writes on stdout once its API
// listens: "toxiproxy-api ADDR".
const Ready = "toxiproxy-api "

// maxSleepers is the proxy's GOMAXPROCS: more chunks than that sleeping
// at the same moment delay the rest.
const maxSleepers = 256

// Main runs the proxy until its parent process is gone or it is told to
// stop (SIGTERM, SIGINT), and returns the process's exit status. It writes
// the API's address on stdout as one Ready line, and its errors on stderr.
func Main(stdout, stderr io.Writer) int {
	if err := serve(stdout); err != nil {
		fmt.Fprintln(stderr, "sqlbench link proxy:", err)
		return 1
	}
	return 0
}

func serve(stdout io.Writer) error {
	parent := os.Getppid()
	// Each delayed chunk's goroutine holds its P while it sleeps in
	// nanosleep (see DelayToxic); with as many Ps as CPUs, two sleepers
	// would leave none for the other goroutines until the runtime's
	// monitor takes one back, up to 10 ms later. Ps to spare keep every
	// other goroutine running at once; the CPUs they share are the
	// kernel's to schedule.
	runtime.GOMAXPROCS(maxSleepers)
	// The API only on loopback, on a port the kernel picks: two sessions
	// never collide.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	logger := zerolog.New(io.Discard)
	metrics := toxiproxy.NewMetricsContainer(prometheus.NewRegistry())
	api := toxiproxy.NewServer(metrics, logger)
	// Bytes per proxy and direction, on the API's /metrics.
	api.Metrics.ProxyMetrics = collectors.NewProxyMetricCollectors()
	srv := &http.Server{Handler: api.Routes(), ReadTimeout: 15 * time.Second, WriteTimeout: 30 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if _, err := fmt.Fprintf(stdout, "%s%s\n", Ready, ln.Addr()); err != nil {
		return fmt.Errorf("say where the API listens: %w", err)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-sig:
			return stop(srv, api)
		case err := <-done:
			return fmt.Errorf("API server: %w", err)
		case <-tick.C:
			// The owner is gone (killed): Pdeathsig should have ended this
			// process already; this is the second line of defence.
			if os.Getppid() != parent {
				return stop(srv, api)
			}
		}
	}
}

// stop closes the API and every proxy with its connections.
func stop(srv *http.Server, api *toxiproxy.ApiServer) error {
	srv.Close()
	api.Collection.Clear()
	return nil
}
