package launcher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/protocol"
)

// A callgrind output file as callgrind 3.19 writes a dump (--dump-instr=no
// --dump-line=no --compress-strings=yes), shortened.
const callgrindDump = `# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 30991
cmd:  ./runner
part: 3

desc: I1 cache: 
desc: Timerange: Basic block 0 - 12261861
desc: Trigger: Client Request

positions: line
events: Ir
summary: 54241213

ob=(1) /tmp/runner
fl=(55) /usr/local/go/src/runtime/mgcpacer.go
fn=(1044) runtime.(*gcControllerState).heapGoalInternal
1002 9430
+5 1886
totals: 54241213
`

func writeFile(t *testing.T, text string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "callgrind.out.1")
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestReadCallgrindTotal reads a dump's Ir from its totals line, or from
// its summary line without one, with other events after Ir, and refuses a
// file whose first event is not Ir or whose total is not a count.
func TestReadCallgrindTotal(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       int64
		err        string
	}{
		{"totals", callgrindDump, 54241213, ""},
		{"summary only", strings.Replace(callgrindDump, "totals: 54241213\n", "", 1), 54241213, ""},
		{"totals over summary", strings.Replace(callgrindDump, "totals: 54241213", "totals: 7", 1), 7, ""},
		{"more events", strings.NewReplacer("events: Ir", "events: Ir Dr Dw",
			"totals: 54241213", "totals: 1200 300 40").Replace(callgrindDump), 1200, ""},
		{"no Ir", strings.Replace(callgrindDump, "events: Ir", "events: Dr", 1), 0, "do not begin with Ir"},
		{"no count", strings.NewReplacer("totals: 54241213", "totals: x", "summary: 54241213", "summary: x").
			Replace(callgrindDump), 0, "no instruction count"},
		{"empty", "", 0, "do not begin with Ir"},
	} {
		got, err := ReadCallgrindTotal(writeFile(t, c.text))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
		case got != c.want:
			t.Errorf("%s: %d instructions, want %d", c.name, got, c.want)
		}
	}
	if _, err := ReadCallgrindTotal(filepath.Join(t.TempDir(), "none")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want a not-exist error", err)
	}
}

// A dump with functions of the client and of the runtime's waiting code,
// names compressed (defined once, named again by id; runtime.mcall first
// as a callee), a call's inclusive cost (not a self cost: left out), an
// inlined file (fi=) and a position column before the cost: 700
// instructions, 300 of them waiting.
const callgrindWaitingDump = `# callgrind format
version: 1
positions: line
events: Ir
summary: 700

ob=(1) /tmp/runner
fl=(1) /root/go/pkg/mod/github.com/jackc/pgx/v5@v5.12.0/pgconn/pgconn.go
fn=(1) github.com/jackc/pgx/v5/pgconn.(*PgConn).receiveMessage
10 100
cfl=(2) /usr/local/go/src/runtime/proc.go
cfn=(2) runtime.gopark
calls=1 300
+2 9999
cfl=(4) /usr/local/go/src/runtime/asm_amd64.s
cfn=(3) runtime.mcall
calls=1 5
+1 30
fi=(3) /usr/local/go/src/internal/poll/fd_unix.go
+1 50
fl=(2)
fn=(2)
1 120
fl=(4)
fn=(3)
5 30
fn=(4) aeshashbody
7 50
fl=(5) /usr/local/go/src/syscall/syscall_linux.go
fn=(5) syscall.RawSyscall6'2
3 100
fl=(6) /usr/local/go/src/runtime/iface.go
fn=(6) runtime.getitab
4 50
fn=(7) runtime.convT64
4 200
totals: 700
`

// TestReadCallgrindCounts splits a dump's instructions into the client's
// and the Go runtime's waiting code, by each function's self cost: by file
// (the scheduler, the system-call layer) and by name (mcall, the
// type-assertion caches' misses), whatever else the same file holds
// (aeshashbody, convT64 are the client's).
func TestReadCallgrindCounts(t *testing.T) {
	c, err := ReadCallgrindCounts(writeFile(t, callgrindWaitingDump))
	if err != nil {
		t.Fatal(err)
	}
	if want := (CallgrindCounts{Total: 700, Waiting: 300}); c != want || c.Client() != 400 {
		t.Errorf("counts %+v (client %d), want %+v (client 400)", c, c.Client(), want)
	}
	bad := strings.Replace(callgrindWaitingDump, "1 120", "1 x", 1)
	if _, err := ReadCallgrindCounts(writeFile(t, bad)); err == nil || !strings.Contains(err.Error(), "cost line") {
		t.Errorf("a cost that is not a number: %v, want an error naming the cost line", err)
	}
	over := strings.NewReplacer("summary: 700", "summary: 200", "totals: 700", "totals: 200").
		Replace(callgrindWaitingDump)
	if _, err := ReadCallgrindCounts(writeFile(t, over)); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("more waiting than all: %v, want an error", err)
	}
}

// A cgo call: runtime.cgocall's calls of the system-call entry and exit
// (inclusive 40 and 25) stay the client's though their code is waiting
// code (self 30 and 20 in proc.go, their callees 10 and 5 too); another
// call of entersyscall, from a read, does not: 265 instructions, 165 in
// waiting code, less the cgo call's 65.
const callgrindCgoDump = `# callgrind format
version: 1
positions: line
events: Ir
summary: 265

ob=(1) /tmp/runner
fl=(1) /usr/local/go/src/runtime/cgocall.go
fn=(1) runtime.cgocall
1 100
cfl=(2) /usr/local/go/src/runtime/proc.go
cfn=(2) runtime.entersyscall
calls=1 1
2 40
cfn=(3) runtime.exitsyscall
calls=1 1
3 25
fl=(2)
fn=(2)
1 30
cfn=(4) runtime.reentersyscall
calls=1 1
2 10
fn=(4)
1 10
fn=(3)
1 20
cfn=(5) runtime.exitsyscallfast
calls=1 1
2 5
fn=(5)
1 5
fl=(3) /usr/local/go/src/syscall/syscall_linux.go
fn=(6) syscall.Syscall
1 85
cfn=(2)
calls=1 1
2 15
fl=(2)
fn=(2)
1 15
totals: 265
`

// TestReadCallgrindCountsCgo: the entry and exit of a call into C count
// as the client's (inclusive), the same code reached otherwise does not.
func TestReadCallgrindCountsCgo(t *testing.T) {
	c, err := ReadCallgrindCounts(writeFile(t, callgrindCgoDump))
	if err != nil {
		t.Fatal(err)
	}
	// Waiting: entersyscall 30+15, reentersyscall 10, exitsyscall 20,
	// exitsyscallfast 5, syscall.Syscall 85 = 165, less cgocall's calls 65.
	if want := (CallgrindCounts{Total: 265, Waiting: 100}); c != want {
		t.Errorf("counts %+v, want %+v", c, want)
	}
}

// TestAddInstructions puts a run's count, divided by its operations, on
// its result line, and only there.
func TestAddInstructions(t *testing.T) {
	lines := []string{"latency-hdr: HISTFAAA", "BenchmarkX/db=sqlite 400 1000 ns/op 3 allocs/op", "x: y"}
	if !addInstructions(lines, 1000001) {
		t.Fatal("no result line found")
	}
	if want := "BenchmarkX/db=sqlite 400 1000 ns/op 3 allocs/op\t2500.0025 instructions/op"; lines[1] != want {
		t.Errorf("result line %q, want %q", lines[1], want)
	}
	if lines[0] != "latency-hdr: HISTFAAA" || lines[2] != "x: y" {
		t.Errorf("other lines changed: %q", lines)
	}
	for _, l := range [][]string{{"x: y"}, {"BenchmarkX 0 1 ns/op"}, {"BenchmarkX n 1 ns/op"}} {
		if addInstructions(l, 5) {
			t.Errorf("%q: added instructions, want none", l)
		}
	}
}

// TestCallgrindArgs: the runner runs under callgrind, counting nothing
// until its client requests turn counting on.
func TestCallgrindArgs(t *testing.T) {
	got := strings.Join(CallgrindArgs("/d/cg.out", "/bin/runner", "-x"), " ")
	for _, want := range []string{"valgrind --tool=callgrind ", " --collect-atstart=no ",
		" --callgrind-out-file=/d/cg.out -- /bin/runner -x"} {
		if !strings.Contains(got, want) {
			t.Errorf("%s: no %q", got, want)
		}
	}
}

// TestCountingDo: a run's reply gets its one count per operation; a run
// that left no count, two, or a count of nothing fails with the reason; a
// request that is not a run is left alone; and a failed run stays failed.
func TestCountingDo(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "callgrind.out")
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	// The runner: each request is answered by the next reply of replies,
	// after the dumps it leaves are written.
	type answer struct {
		dumps []string // totals lines of the dumps the request leaves
		lines []string
	}
	answers := make(chan answer, 1)
	go func() {
		sc := bufio.NewScanner(stdinR)
		n := 0
		for sc.Scan() {
			a := <-answers
			for _, d := range a.dumps {
				n++
				text := strings.Replace(callgrindDump, "totals: 54241213", d, 1)
				if err := os.WriteFile(fmt.Sprintf("%s.%d", out, n), []byte(text), 0o644); err != nil {
					panic(err)
				}
			}
			for _, l := range a.lines {
				fmt.Fprintln(stdoutW, l)
			}
		}
	}()
	c := &Counting{Process: newProcess(stdinW, stdoutR), out: out, next: 1}
	ok := []string{"BenchmarkX 100 5 ns/op", protocol.StatusLine(nil)}
	run := protocol.Request{Verb: protocol.VerbRun, Target: "t", Workload: "w", N: 100, Run: 1, Slice: 1, Slices: 1}
	for _, step := range []struct {
		req  protocol.Request
		a    answer
		line string // the reply's first line, when it succeeds
		fail string
	}{
		{run, answer{[]string{"totals: 250000"}, ok}, "BenchmarkX 100 5 ns/op\t2500 instructions/op", ""},
		{protocol.Request{Verb: protocol.VerbHello}, answer{nil, []string{"runner: go", protocol.StatusLine(nil)}},
			"runner: go", ""},
		{run, answer{nil, ok}, "", "counted 0 timed regions"},
		{run, answer{[]string{"totals: 1", "totals: 2"}, ok}, "", "counted 2 timed regions"},
		{run, answer{[]string{"totals: 0"}, ok}, "", "counted no instructions"},
		{run, answer{[]string{"totals: 9"}, []string{protocol.StatusLine(errors.New("boom"))}}, "", "boom"},
		{run, answer{[]string{"totals: 300"}, ok}, "BenchmarkX 100 5 ns/op\t3 instructions/op", ""},
	} {
		answers <- step.a
		reply, err := c.Do(context.Background(), step.req, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case step.fail != "" && !strings.Contains(reply.Fail, step.fail):
			t.Errorf("%s: failure %q, want one saying %q", step.req.Verb, reply.Fail, step.fail)
		case step.fail == "" && (reply.Fail != "" || len(reply.Lines) == 0 || reply.Lines[0] != step.line):
			t.Errorf("%s: reply %q (failure %q), want %q", step.req.Verb, reply.Lines, reply.Fail, step.line)
		}
	}
	if left, _ := filepath.Glob(out + ".*"); len(left) != 0 {
		t.Errorf("counts left behind: %v", left)
	}
	stdinW.Close()
}
