package session

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/runner"
)

// inProcess is a runner served by runner.Loop in a goroutine of the test,
// through pipes: what a test's Session.dial returns instead of starting a
// runner binary. Killing it (a time-out, a cancelled ctx) closes the pipes,
// which stops the loop at its next request.
type inProcess struct {
	in    *io.PipeWriter
	inR   *io.PipeReader
	outR  *io.PipeReader
	lines chan string
	done  chan struct{}
}

// newInProcess starts a runner loop of this test binary's targets and
// workloads.
func newInProcess() *inProcess {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &inProcess{in: inW, inR: inR, outR: outR, lines: make(chan string, 64), done: make(chan struct{})}
	loop := &runner.Loop{In: inR, Out: outW, Log: io.Discard}
	go func() {
		loop.Serve(context.Background())
		outW.Close()
		close(p.done)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	return p
}

// Do implements launcher.Conn.
func (p *inProcess) Do(ctx context.Context, req protocol.Request, timeout time.Duration) (protocol.Reply, error) {
	var reply protocol.Reply
	if _, err := io.WriteString(p.in, req.Encode()+"\n"); err != nil {
		return reply, fmt.Errorf("runner died during write request: %w", err)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return reply, errors.New("runner died during read reply")
			}
			if isStatus, fail := protocol.ParseStatus(line); isStatus {
				reply.Fail = fail
				return reply, nil
			}
			reply.Lines = append(reply.Lines, line)
		case <-timer.C:
			p.kill()
			return reply, fmt.Errorf("%w (%s)", launcher.ErrTimeout, timeout)
		case <-ctx.Done():
			p.kill()
			return reply, ctx.Err()
		}
	}
}

// kill closes the pipes: the loop ends at its next read or write.
func (p *inProcess) kill() {
	p.inR.CloseWithError(errors.New("killed"))
	p.outR.CloseWithError(errors.New("killed"))
}

// Close implements launcher.Conn: it ends the loop's input.
func (p *inProcess) Close() error {
	p.in.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.kill()
	}
	return nil
}
