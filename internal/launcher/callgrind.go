package launcher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/unit"
)

// CallgrindEnv is the environment a Go runner counted under callgrind
// runs with, beside its own: no asynchronous preemption (its signals
// disturb Valgrind's view of the goroutine stacks), no shrinking of
// goroutine stacks (a stack that grows again in a timed region is copied,
// and callgrind takes the move for a return from the region), and no garbage
// collection but the one each run begins with (a collection's assists
// fall on the timing thread at times that vary from run to run), unless
// a run's garbage reaches GOMEMLIMIT.
var CallgrindEnv = []string{"GODEBUG=asyncpreemptoff=1,gcshrinkstackoff=1", "GOGC=off", "GOMEMLIMIT=1GiB"}

// Valgrind returns the version of the valgrind on PATH ("valgrind-3.19.0"),
// or an error saying it is missing.
func Valgrind() (string, error) {
	path, err := exec.LookPath("valgrind")
	if err != nil {
		return "", errors.New("valgrind is not installed (Debian: apt-get install valgrind)")
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("valgrind --version: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// CallgrindArgs returns the valgrind command line that runs bin with args
// under callgrind, counting nothing but the timed region of each run (the
// runner's client requests, bench.countOn and countOff, turn counting on and off
// around it and write its count) and each run's count to a file of its
// own: out.1, out.2, ... in the order of the runs.
func CallgrindArgs(out, bin string, args ...string) []string {
	return append([]string{"valgrind", "--tool=callgrind", "--quiet", "--collect-atstart=no",
		"--dump-instr=no", "--dump-line=no", "--compress-strings=yes",
		"--callgrind-out-file=" + out, "--", bin}, args...)
}

// Counting is a runner counted under callgrind: its run replies carry the
// instructions per operation of the run's timed region (unit.Instructions)
// beside what the runner measured.
type Counting struct {
	*Process
	out  string // the callgrind output file; the runs' counts are out.1, out.2, ...
	next int    // the number of the next run's count
}

// StartCounting starts the runner binary bin (with args) under callgrind,
// writing its counts in a directory of its own made under dir.
func StartCounting(dir, bin string, args ...string) (*Counting, error) {
	d, err := os.MkdirTemp(dir, "callgrind-")
	if err != nil {
		return nil, fmt.Errorf("callgrind's directory: %w", err)
	}
	out := filepath.Join(d, "callgrind.out")
	argv := CallgrindArgs(out, bin, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), CallgrindEnv...)
	p, err := start(cmd)
	if err != nil {
		os.RemoveAll(d)
		return nil, err
	}
	return &Counting{Process: p, out: out, next: 1}, nil
}

// Do implements Conn: a run's reply gets the instructions per operation
// of its timed region on its result line.
func (c *Counting) Do(ctx context.Context, req protocol.Request, timeout time.Duration) (protocol.Reply, error) {
	reply, err := c.Process.Do(ctx, req, timeout)
	if err != nil || req.Verb != protocol.VerbRun {
		return reply, err
	}
	// Every timed region, failed or not, wrote its count when it returned,
	// before the runner wrote its reply.
	var counts []int64
	for {
		name := c.out + "." + strconv.Itoa(c.next)
		cc, rerr := ReadCallgrindCounts(name)
		ir := cc.Client()
		if errors.Is(rerr, fs.ErrNotExist) {
			break
		}
		c.next++
		os.Remove(name)
		if rerr != nil {
			return reply, rerr
		}
		counts = append(counts, ir)
	}
	if reply.Fail != "" {
		return reply, nil
	}
	if len(counts) != 1 {
		reply.Fail = fmt.Sprintf("callgrind counted %d timed regions in one run, want 1", len(counts))
		return reply, nil
	}
	if counts[0] == 0 {
		// A runner whose timed region makes no client requests, or a
		// callgrind that ignored them.
		reply.Fail = "callgrind counted no instructions in the run's timed region"
		return reply, nil
	}
	if !addInstructions(reply.Lines, counts[0]) {
		reply.Fail = "the run's reply has no result line to add its instructions to"
	}
	return reply, nil
}

// Close implements Conn, removing the counts' directory.
func (c *Counting) Close() error {
	err := c.Process.Close()
	os.RemoveAll(filepath.Dir(c.out))
	return err
}

// addInstructions appends ir instructions, per operation of the result
// line among lines, to that line; it reports whether there was one.
func addInstructions(lines []string, ir int64) bool {
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || n <= 0 {
			return false
		}
		per := strconv.FormatFloat(float64(ir)/float64(n), 'f', -1, 64)
		lines[i] = l + "\t" + per + " " + unit.Instructions
		return true
	}
	return false
}

// ReadCallgrindTotal reads the instructions (Ir) a callgrind output file
// counts: its totals line (or, without one, its summary line), whose first
// event is Ir when callgrind ran without cache or branch simulation.
func ReadCallgrindTotal(name string) (int64, error) {
	c, err := ReadCallgrindCounts(name)
	return c.Total, err
}

// CallgrindCounts is what one callgrind dump of a timed region counted.
type CallgrindCounts struct {
	// Total is every instruction counted (Ir), as the dump's totals line
	// (or, without one, its summary line) says.
	Total int64
	// Waiting is the part of Total in the Go runtime's code of waiting
	// and of its bookkeeping (WaitingCode): how much of it a round trip
	// runs depends on whether the reply was there when the client read.
	Waiting int64
}

// Client is the client's own work: Total less Waiting. It is what
// --measure instructions reports per operation.
func (c CallgrindCounts) Client() int64 { return c.Total - c.Waiting }

// WaitingCode tells the Go runtime's code that a timed region runs more
// or less of as time, not the client's work, decides: its scheduler
// (runtime/proc.go: parking a goroutine, handing the locked thread's P
// over and back, entering and leaving system calls, sysmon's retakes),
// its locks, notes and futexes, the network poller, timers and clocks,
// the GC CPU limiter, the system-call layer (package syscall and
// internal/runtime/syscall; a read that finds no reply is one more), the
// stack switches of the scheduler (mcall, gogo, systemstack), and the
// misses of the type-assertion caches (filled once per call site, in
// whichever run first gets there). Matched against the source file of
// each function callgrind names, and its name. The system-call entry and
// exit of each call into C (CgoTransitions) stay the client's: a cgo
// driver pays them once per call, as many as its design makes.
var WaitingCode = struct{ Files, Funcs *regexp.Regexp }{
	Files: regexp.MustCompile(`/runtime/(proc\.go|lock_\w+\.go|netpoll\w*\.go|os_linux\.go|list_manual\.go|` +
		`sys_linux_amd64\.s|mgclimit\.go|time\.go|time_nofake\.go|time_linux_amd64\.s)$|` +
		`/internal/poll/fd_poll_runtime\.go$|/src/syscall/|/internal/runtime/syscall/`),
	Funcs: regexp.MustCompile(`^(runtime\.(mcall|gogo|systemstack|systemstack_switch|save|` +
		`typeAssert|interfaceSwitch|getitab|\(\*itabTableType\)\.find|buildTypeAssertCache|` +
		`buildInterfaceSwitchCache)(\.abi0)?|gogo)('\d+)?$`),
}

// CgoTransitions are the calls, from runtime.cgocall (Caller) to the
// scheduler's system-call entry and exit (Callees), whose inclusive cost
// ReadCallgrindCounts leaves in the client's count.
var CgoTransitions = struct{ Caller, Callees *regexp.Regexp }{
	Caller:  regexp.MustCompile(`^runtime\.cgocall('\d+)?$`),
	Callees: regexp.MustCompile(`^runtime\.(entersyscall|exitsyscall)('\d+)?$`),
}

// ReadCallgrindCounts reads a callgrind output file (--dump-instr=no,
// compressed or plain names): its total instructions (Ir) and the part of
// them in WaitingCode, by the self cost of each function.
func ReadCallgrindCounts(name string) (CallgrindCounts, error) {
	var c CallgrindCounts
	f, err := os.Open(name)
	if err != nil {
		return c, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	events, total, summary := "", "", ""
	positions := 1
	files, funcs := map[string]string{}, map[string]string{} // compressed ids' names
	file, waiting, skip := "", false, false
	cgocall, transition := false, false // in runtime.cgocall; its call of CgoTransitions
	for sc.Scan() {
		line := sc.Text()
		if skip { // the inclusive cost of a call, already in the callee's self cost
			skip = false
			if transition { // but for a cgo call's entry and exit: the client's
				f := strings.Fields(line)
				if len(f) > positions {
					ir, err := strconv.ParseInt(f[positions], 10, 64)
					if err != nil {
						return c, fmt.Errorf("%s: call cost line %q: %w", name, line, err)
					}
					c.Waiting -= ir
				}
			}
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		if b := line[0]; b >= '0' && b <= '9' || b == '+' || b == '-' || b == '*' {
			if waiting {
				f := strings.Fields(line)
				if len(f) > positions {
					ir, err := strconv.ParseInt(f[positions], 10, 64)
					if err != nil {
						return c, fmt.Errorf("%s: cost line %q: %w", name, line, err)
					}
					c.Waiting += ir
				}
			}
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && !strings.Contains(k, ":") {
			switch k {
			case "calls":
				skip = true
			case "fl":
				file = callgrindName(files, v)
			case "fi", "fe", "cfi", "cfl":
				callgrindName(files, v)
			case "cfn":
				callee := callgrindName(funcs, v) // defines its id, whether or not it is used here
				transition = cgocall && CgoTransitions.Callees.MatchString(callee)
			case "fn":
				fn := callgrindName(funcs, v)
				waiting = WaitingCode.Files.MatchString(file) || WaitingCode.Funcs.MatchString(fn)
				cgocall, transition = CgoTransitions.Caller.MatchString(fn), false
			}
			continue
		}
		if k, v, ok := strings.Cut(line, ":"); ok {
			switch k {
			case "events":
				events = strings.TrimSpace(v)
			case "positions":
				positions = len(strings.Fields(v))
			case "totals":
				total = strings.TrimSpace(v)
			case "summary":
				summary = strings.TrimSpace(v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("read %s: %w", name, err)
	}
	if total == "" {
		total = summary
	}
	if ev := strings.Fields(events); len(ev) == 0 || ev[0] != "Ir" {
		return c, fmt.Errorf("%s: events %q do not begin with Ir", name, events)
	}
	first, _, _ := strings.Cut(total, " ")
	ir, err := strconv.ParseInt(first, 10, 64)
	if err != nil || ir < 0 {
		return c, fmt.Errorf("%s: no instruction count in its totals line %q", name, total)
	}
	c.Total = ir
	c.Waiting = max(c.Waiting, 0) // a cgo call's exit that ran other code than waiting code
	if c.Waiting > c.Total {
		return c, fmt.Errorf("%s: %d instructions in waiting code, more than the %d in all", name, c.Waiting, c.Total)
	}
	return c, nil
}

// callgrindName returns the name a callgrind name specification gives,
// "(id) name" (defining id), "(id)" (naming it again) or "name",
// remembering ids in names.
func callgrindName(names map[string]string, spec string) string {
	spec = strings.TrimSpace(spec)
	if !strings.HasPrefix(spec, "(") {
		return spec
	}
	id, name, ok := strings.Cut(spec[1:], ")")
	if !ok {
		return spec
	}
	if name = strings.TrimSpace(name); name != "" {
		names[id] = name
		return name
	}
	return names[id]
}
