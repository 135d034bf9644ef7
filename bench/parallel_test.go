package bench

import (
	"errors"
	"testing"
	"time"
)

// TestRunParallelCountsEachClientApart checks the parallel loop's
// bookkeeping: each client counts the operations it did in a variable of
// its own (the loop writes one shared word per operation, the claim
// counter, as the published concurrent loops' one atomic counter), and
// those counts are exactly the operations each client ran, also when one
// fails.
func TestRunParallelCountsEachClientApart(t *testing.T) {
	const clients, n = 4, 1000
	ran := make([]int, clients) // each client's own, written by it alone
	ops := make([]func(int) error, clients)
	for w := range ops {
		ops[w] = func(int) error { ran[w]++; return nil }
	}
	done, err := runParallelClients(ops, 10, n, nil, nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for w := range clients {
		if done[w] != ran[w] {
			t.Errorf("client %d: counted %d operations, ran %d", w, done[w], ran[w])
		}
		total += done[w]
	}
	if total != n {
		t.Errorf("%d operations counted, want %d", total, n)
	}

	clear(ran)
	boom := errors.New("boom")
	failing := make(chan struct{})
	for w := range ops {
		ops[w] = func(int) error { <-failing; ran[w]++; return nil }
	}
	ops[1] = func(int) error { // fails at its third operation; the others wait for it
		if ran[1] == 2 {
			close(failing)
			return boom
		}
		ran[1]++
		return nil
	}
	done, err = runParallelClients(ops, 0, n, nil, nil, time.Time{})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want %v", err, boom)
	}
	for w := range clients {
		if done[w] != ran[w] {
			t.Errorf("after a failure, client %d: counted %d operations, ran %d", w, done[w], ran[w])
		}
	}
	if done[1] != 2 {
		t.Errorf("the failing client counted %d operations, want the 2 before its failure", done[1])
	}
	if got, _ := runParallelFor(ops[:1], 0, n, nil, nil, time.Time{}); got != n {
		t.Errorf("runParallelFor: %d operations done, want %d", got, n)
	}
}
