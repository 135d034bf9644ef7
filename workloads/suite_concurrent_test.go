package workloads

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// TestSuiteConcurrentOpensInTurn: as the published concurrent test opens
// its connections one after another (each in its main goroutine, then
// starting the goroutine that reads through it), a round's clients open
// theirs in turn, never two at once, and every client gets its open even
// when an earlier one failed.
func TestSuiteConcurrentOpensInTurn(t *testing.T) {
	const conns, hold = 4, 20 * time.Millisecond
	var mu sync.Mutex
	opening, most, opens := 0, 0, 0
	refused := errors.New("refused")
	e := bench.Env{Ctx: context.Background(), Dialect: bench.DialectOf(bench.SQLite), Scale: 0.001,
		Open: func(context.Context, int) (bench.Conn, error) {
			mu.Lock()
			opening++
			opens++
			most = max(most, opening)
			mu.Unlock()
			time.Sleep(hold) // long enough for overlapping opens to meet
			mu.Lock()
			opening--
			mu.Unlock()
			return nil, refused
		}}
	r, err := suiteConcurrentRun(e, conns)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := r.Op(0); !errors.Is(err, refused) {
		t.Fatalf("round: %v, want every client's open refused", err)
	}
	if opens != conns || most != 1 {
		t.Errorf("%d opens, at most %d at once; want %d, one at a time", opens, most, conns)
	}
	if took := time.Since(start); took < conns*hold {
		t.Errorf("the round took %v: the %d opens of %v did not follow one another", took, conns, hold)
	}
}
