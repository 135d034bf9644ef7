package launcher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sqlbench/sqlbench/internal/protocol"
)

// ErrTimeout is returned by Process.Do when the runner did not answer in
// time; the runner has been killed.
var ErrTimeout = errors.New("runner did not answer in time")

// Conn is a connection to a runner: something that answers protocol
// requests. Process is the real one; tests may serve the protocol in
// process.
type Conn interface {
	// Do sends one request and waits at most timeout for its reply. An
	// error means the runner is gone (died, killed on timeout, or ctx done)
	// and must not be used again.
	Do(ctx context.Context, req protocol.Request, timeout time.Duration) (protocol.Reply, error)
	// Close ends the runner and waits for it.
	Close() error
}

// Process is a running runner: a child process (Start).
type Process struct {
	stdin  io.WriteCloser
	lines  chan string
	stderr *tailBuffer
	done   chan struct{}
	once   sync.Once
	err    error
	killer func()
	pid    int
	// Progress, when set, is given every line of a reply that carries an
	// open-loop run's interval (protocol.ProgressKey) as it arrives, during
	// the run; the reply keeps it too. Set it before the first Do.
	Progress func(line string)
}

// Pid returns the process id of the protocol.
func (p *Process) Pid() int { return p.pid }

func newProcess(stdin io.WriteCloser, stdout io.Reader) *Process {
	p := &Process{stdin: stdin, lines: make(chan string, 64), stderr: &tailBuffer{}, done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	return p
}

// Start starts the runner binary bin (with args) in a session of its own
// (and so its own process group), so that a Ctrl-C in the terminal reaches
// only the orchestrator, and so that where the scheduler groups processes
// by session (autogroup) the runner's group is its own: the runner raises
// its priority with it (runner.RaisePriority) without raising any other
// program's.
func Start(bin string, args ...string) (*Process, error) {
	return start(exec.Command(bin, args...))
}

// start starts cmd as Start does.
func start(cmd *exec.Cmd) (*Process, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := newProcess(stdin, stdout)
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start runner: %w", err)
	}
	p.pid = cmd.Process.Pid
	// The whole group: a runner may have started helpers.
	p.killer = func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Do implements Conn.
func (p *Process) Do(ctx context.Context, req protocol.Request, timeout time.Duration) (protocol.Reply, error) {
	if _, err := io.WriteString(p.stdin, req.Encode()+"\n"); err != nil {
		return protocol.Reply{}, p.died("write request", err)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var reply protocol.Reply
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return reply, p.died("read reply", io.ErrUnexpectedEOF)
			}
			if isStatus, fail := protocol.ParseStatus(line); isStatus {
				reply.Fail = fail
				return reply, nil
			}
			if p.Progress != nil && strings.HasPrefix(line, protocol.ProgressKey+": ") {
				p.Progress(line)
			}
			reply.Lines = append(reply.Lines, line)
		case <-timer.C:
			p.kill()
			return reply, fmt.Errorf("%w (%s)", ErrTimeout, timeout)
		case <-ctx.Done():
			p.kill()
			return reply, ctx.Err()
		}
	}
}

// died describes why the runner stopped answering: with the last line it
// wrote to stderr (a panic's, say), unless it was killed from outside
// (SIGKILL: the OOM killer, a user), when that line is only what some
// earlier cell logged.
func (p *Process) died(what string, err error) error {
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
		p.kill()
	}
	if tail := p.stderr.last(); tail != "" && !killed(p.err) {
		return fmt.Errorf("runner died (%v); its last words on stderr: %s", p.err, tail)
	}
	return fmt.Errorf("runner died during %s: %v", what, errors.Join(err, p.err))
}

// killed reports whether err is the exit of a process killed by SIGKILL.
func killed(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

func (p *Process) kill() {
	p.once.Do(p.killer)
	<-p.done
}

// Close implements Conn: it closes the runner's stdin, which ends it, and
// kills it if it has not exited within a few seconds.
func (p *Process) Close() error {
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.kill()
	}
	return nil
}

// tailBuffer keeps the last lines a runner wrote to stderr.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > 8<<10 {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-4<<10:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
