package floor

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"

	"github.com/sqlbench/sqlbench/bench"
)

// The floor family: the same sizes moved over loopback TCP and HTTP/1.1 to
// a sink in the runner process (the targets of package floor/wire), so that
// a report can show every networked driver cell as a multiple of the limit
// measured in the same run.
//
// TCPSend and HTTPPost do what the published TCP and HTTP benchmarks do
// (rah-0/hyperion commit 2a8026c, benchmarks/tcp and benchmarks/http:
// https://github.com/rah-0/hyperion/tree/2a8026c/benchmarks): a TCPSend
// writes the message through a bufio.Writer and flushes it, and nothing
// comes back (the time is that of handing the bytes to the kernel, until
// the socket's buffers are full; then the sink's reading paces it); an
// HTTPPost is one net/http POST whose handler reads the body with
// io.ReadAll and answers 200. Neither is checked per operation beyond the
// HTTP status, as in the published programs; after each run (untimed) the
// sink's counts of requests and bytes must equal what was sent. The round
// trip, checked per operation, is TCPRoundTrip's. Sizes are binary: 1 KB =
// 1024 bytes; the smallest, 9 bytes, is the published "something".

// floorSmall is the published small message of both benchmarks
// (BenchmarkTCPClientSendSingleMessage, BenchmarkHTTPClientSendSingleMessage).
const floorSmall = "something"

// floorBig is the smallest message that runs only at --scale 1 (MinScale):
// 10 MB, 100 MB and 1 GB messages are too big for smoke runs and for the
// shared target tests.
const floorBig = 10 << 20

// floorSizes are the message sizes of TCPSend and HTTPPost: the published
// 9 bytes, 1 KB to 1 MB by doubling, then 10 MB, 100 MB and 1 GB.
func floorSizes() []int {
	s := []int{len(floorSmall)}
	for n := 1 << 10; n <= 1<<20; n *= 2 {
		s = append(s, n)
	}
	return append(s, 10<<20, 100<<20, 1<<30)
}

// floorOps is the operation count of one HTTPPost run at scale 1 for
// messages of size bytes: about 1 GB moved per run, at most 20,000
// messages (an HTTP request of 1 KB takes about 100 µs) and at least 4.
func floorOps(size int) int {
	return max(4, min(20_000, (1<<30)/size))
}

// tcpSendOps is the operation count of one TCPSend run at scale 1: about
// 4 GB moved per run (1-2 s at loopback's 2-3 GB/s), at most 1,000,000
// messages (a small one takes 1-3 µs) and at least 4. Short timed pieces
// do not give the steady cost the published 60-second runs measured: a
// send answers nothing, so what it costs depends on whether the sink is
// already awake reading (likely the reason; not traced). Measured here
// (docs/reproduce.md), a 9-byte send took 9.4 µs (median) in pieces of 200
// sends, 4.4 µs in pieces of 1,000, 2.2 µs in 4,000 and 1.6-1.9 µs from
// 20,000 up; the published program gives 1.9-2.2 µs from 20,000 up, and
// its shorter runs scatter from 0.7 to 35 µs.
func tcpSendOps(size int) int {
	return max(4, min(1_000_000, (4<<30)/size))
}

// tcpSendSmoke is TCPSend's smoke (--quick) scale: the catalogue's quick
// scale would leave a 9-byte run 10,000 sends, 2,000 a slice; this one
// leaves 50,000 (about 0.1 s), 10,000 a slice.
const tcpSendSmoke = 0.05

// TCPSendPiece is the fewest sends of a small message (up to 8 KB, where
// the published times are about per write, not per byte) a timed piece of
// a TCPSend run should have, at the smoke scale, the default scale and the
// scales of the studies: below it a send costs more than in a long run
// (see tcpSendOps).
const TCPSendPiece = 4_000

// floorPattern is how much of the seeded generator's data a payload
// repeats: a payload is text, not a run of one byte.
const floorPattern = 1 << 20

// Workloads returns the floor family, in the order it is listed: TCPSend,
// TCPRoundTrip and HTTPPost by size. They run on Loopback only, through the
// handles of its targets (Wire, Poster); the workload catalogue registers
// them.
func Workloads() []bench.Workload {
	only := []bench.DB{Loopback}
	var ws []bench.Workload
	for _, size := range floorSizes() {
		ws = append(ws, bench.Workload{
			Name: "TCPSend", Keys: "size=" + strconv.Itoa(size), Ops: tcpSendOps(size), Unit: "messages",
			Only: only, Needs: CapWire, MinScale: floorMinScale(size), Smoke: tcpSendSmoke,
			Describe: func(bench.Dialect) string {
				return fmt.Sprintf("one %s message written and flushed through a bufio.Writer to a sink over "+
					"loopback TCP that reads and drops it, no answer (the published client); bytes received checked "+
					"after the run%s", sizeName(size), scaleOnly(size))
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				w, ok := e.Handle.(Wire)
				if !ok {
					return bench.Run{}, errors.New("the target has no raw transport (floor.Wire)")
				}
				return payloadRun(size, w.Send, w.Settle), nil
			},
		})
	}
	for _, size := range []int{1, 16} {
		ws = append(ws, bench.Workload{
			Name: "TCPRoundTrip", Keys: "size=" + strconv.Itoa(size), Ops: 50_000, Unit: "round trips",
			Only: only, Needs: CapWire,
			Describe: func(bench.Dialect) string {
				return fmt.Sprintf("ping-pong over loopback TCP: %d byte%s written, echoed by the sink, read back "+
					"and compared", size, plural(size))
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				w, ok := e.Handle.(Wire)
				if !ok {
					return bench.Run{}, errors.New("the target has no raw transport (floor.Wire)")
				}
				p := make([]byte, size)
				return bench.Run{Op: func(i int) error {
					// The operation number goes into the message, so a stale
					// or reordered echo fails the comparison.
					for k := range p {
						p[k] = byte(i >> (8 * (k % 8)))
					}
					return w.RoundTrip(p)
				}, BytesPerOp: float64(size)}, nil
			},
		})
	}
	for _, size := range floorSizes() {
		ws = append(ws, bench.Workload{
			Name: "HTTPPost", Keys: "size=" + strconv.Itoa(size), Ops: floorOps(size), Unit: "requests",
			Only: only, Needs: CapHTTP, MinScale: floorMinScale(size),
			Describe: func(bench.Dialect) string {
				return fmt.Sprintf("a net/http POST of a %s body to a net/http server on loopback that reads it with "+
					"io.ReadAll and answers 200 (the published client and handler); status checked, requests and "+
					"bytes received checked after the run%s", sizeName(size), scaleOnly(size))
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				p, ok := e.Handle.(Poster)
				if !ok {
					return bench.Run{}, errors.New("the target has no HTTP transport (floor.Poster)")
				}
				return payloadRun(size, p.Post, p.Settle), nil
			},
		})
	}
	for i := range ws {
		ws[i].Family = Family
		ws[i].Setup, ws[i].Teardown = func(bench.Env) error { return nil }, func(bench.Env) error { return nil }
	}
	return ws
}

// floorMinScale is the MinScale of a message of size bytes: 1 from
// floorBig up.
func floorMinScale(size int) float64 {
	if size >= floorBig {
		return 1
	}
	return 0
}

// payloadRun sends one size-byte payload per operation through send. The
// payload is made once per run, outside the timed region; End checks with
// settle that the sink received it all and lets a big one go before the
// next run makes its own.
func payloadRun(size int, send func([]byte) error, settle func() error) bench.Run {
	p := floorPayload(size)
	return bench.Run{
		Op:         func(int) error { return send(p) },
		BytesPerOp: float64(size),
		End: func() error {
			p = nil
			if size >= floorBig {
				// The next run's gigabyte replaces this one instead of
				// joining it, and the runner's memory goes back down.
				debug.FreeOSMemory()
			}
			return settle()
		},
	}
}

// floorPayload returns size bytes: the published "something" at its size,
// else the seeded generator's data, its first megabyte repeated.
func floorPayload(size int) []byte {
	if size == len(floorSmall) {
		return []byte(floorSmall)
	}
	p := make([]byte, size)
	n := copy(p, bench.Value(0, 0, 1, min(size, floorPattern)))
	for n < size {
		n += copy(p[n:], p[:n])
	}
	return p
}

// sizeName writes a binary size the way the catalogue does: 1 KB, 64 KB,
// 10 MB, 1 GB.
func sizeName(n int) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.Itoa(n>>30) + " GB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KB"
	}
	return strconv.Itoa(n) + " B"
}

// scaleOnly notes in a description that a variant runs only at scale 1.
func scaleOnly(size int) string {
	if m := floorMinScale(size); m > 0 {
		return fmt.Sprintf(" (planned only at --scale %g or more)", m)
	}
	return ""
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
