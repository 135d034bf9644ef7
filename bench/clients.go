package bench

import (
	"runtime"
	"sync"
)

// Clients are the client goroutines an operation of a sequential run fans
// out to, as a published program that starts its clients inside each timed
// round does (the SQLite suites' concurrent tests). Client k of every round
// is one client: Go runs a round on its own goroutines, each locked to an
// OS thread whose scheduler times it adds to its client's, so that a run
// whose Run.Clients is set divides its time by what its clients' threads
// did (their mean, as a parallel run's), not by the coordinating
// goroutine, which only waits for them.
type Clients struct {
	times  []threadTimes
	locked bool
}

// NewClients returns n clients.
func NewClients(n int) *Clients {
	return &Clients{times: make([]threadTimes, n)}
}

// N returns the number of clients.
func (c *Clients) N() int { return len(c.times) }

// reset clears the clients' times before a run; locked says whether their
// threads are to be read (Measure's Options.FreeThread is not set).
func (c *Clients) reset(locked bool) {
	clear(c.times)
	c.locked = locked
}

// Go runs one round: fn(k) for every client k, each on a goroutine of its
// own, and waits for all of them.
func (c *Clients) Go(fn func(k int)) {
	var wg sync.WaitGroup
	for k := range c.times {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !c.locked {
				fn(k)
				return
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var clock threadClock
			t := &c.times[k]
			if err := clock.open(); err != nil {
				t.err = err
				fn(k)
				return
			}
			defer clock.close()
			cpu0, rq0, err0 := clock.read()
			fn(k)
			cpu1, rq1, err1 := clock.read()
			t.cpu += cpu1 - cpu0
			t.runQueue += rq1 - rq0
			if t.err == nil && (err0 != nil || err1 != nil) {
				t.err = err0
				if t.err == nil {
					t.err = err1
				}
			}
		}()
	}
	wg.Wait()
}
