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
// Every operation is a complete, checked exchange, as a driver's is: a
// TCPSend writes one framed message and waits for the sink's 8-byte
// acknowledgement of the running byte count (a send without it could not
// be verified per operation, and would time only the copy into the socket
// buffer); small sizes are therefore dominated by the round trip, large
// ones by the copy. Sizes are binary: 1 KB = 1024 bytes.

// floorBig is the smallest message that runs only at --scale 1 (MinScale):
// 10 MB, 100 MB and 1 GB messages are too big for smoke runs and for the
// shared target tests.
const floorBig = 10 << 20

// floorSizes are the message sizes of TCPSend and HTTPPost: 1 KB to 1 MB by
// doubling, then 10 MB, 100 MB and 1 GB.
func floorSizes() []int {
	var s []int
	for n := 1 << 10; n <= 1<<20; n *= 2 {
		s = append(s, n)
	}
	return append(s, 10<<20, 100<<20, 1<<30)
}

// floorOps is the operation count of one run at scale 1 for messages of
// size bytes: about 1 GB moved per run, at most 20,000 messages (an HTTP
// request of 1 KB takes about 100 µs) and at least 4.
func floorOps(size int) int {
	return max(4, min(20_000, (1<<30)/size))
}

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
			Name: "TCPSend", Keys: "size=" + strconv.Itoa(size), Ops: floorOps(size), Unit: "messages",
			Only: only, Needs: CapWire, MinScale: floorMinScale(size),
			Describe: func(bench.Dialect) string {
				return fmt.Sprintf("one %s message to a sink over loopback TCP, acknowledged by the sink's 8-byte running byte count%s", sizeName(size), scaleOnly(size))
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				w, ok := e.Handle.(Wire)
				if !ok {
					return bench.Run{}, errors.New("the target has no raw transport (floor.Wire)")
				}
				return payloadRun(size, w.Send), nil
			},
		})
	}
	for _, size := range []int{1, 16} {
		ws = append(ws, bench.Workload{
			Name: "TCPRoundTrip", Keys: "size=" + strconv.Itoa(size), Ops: 50_000, Unit: "round trips",
			Only: only, Needs: CapWire,
			Describe: func(bench.Dialect) string {
				return fmt.Sprintf("ping-pong over loopback TCP: %d byte%s written, echoed by the sink, read back and compared", size, plural(size))
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
				return fmt.Sprintf("a net/http POST of a %s body to a net/http server on loopback that drains it and answers 204 with the byte count%s", sizeName(size), scaleOnly(size))
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				p, ok := e.Handle.(Poster)
				if !ok {
					return bench.Run{}, errors.New("the target has no HTTP transport (floor.Poster)")
				}
				return payloadRun(size, p.Post), nil
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
// payload is made once per run, outside the timed region; End lets a big
// one go before the next run makes its own.
func payloadRun(size int, send func([]byte) error) bench.Run {
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
			return nil
		},
	}
}

// floorPayload returns size bytes of the seeded generator's data: its first
// megabyte, repeated.
func floorPayload(size int) []byte {
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
