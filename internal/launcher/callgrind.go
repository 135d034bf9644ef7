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
		ir, rerr := ReadCallgrindTotal(name)
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
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	events, total, summary := "", "", ""
	for sc.Scan() {
		line := sc.Text()
		if k, v, ok := strings.Cut(line, ":"); ok {
			switch k {
			case "events":
				events = strings.TrimSpace(v)
			case "totals":
				total = strings.TrimSpace(v)
			case "summary":
				summary = strings.TrimSpace(v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("read %s: %w", name, err)
	}
	if total == "" {
		total = summary
	}
	if ev := strings.Fields(events); len(ev) == 0 || ev[0] != "Ir" {
		return 0, fmt.Errorf("%s: events %q do not begin with Ir", name, events)
	}
	first, _, _ := strings.Cut(total, " ")
	ir, err := strconv.ParseInt(first, 10, 64)
	if err != nil || ir < 0 {
		return 0, fmt.Errorf("%s: no instruction count in its totals line %q", name, total)
	}
	return ir, nil
}
