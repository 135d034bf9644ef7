package launcher

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// Job is one runner a Batch builds.
type Job struct {
	// Name names the runner in the log: its group ("mattn"), or "the JDBC
	// runner".
	Name string
	// Note follows the name in the plan line: "cgo", "Maven".
	Note string
	// Record is the name its build time is kept under in the cache: the
	// group, or JarRecord.
	Record string
	// Apart is set for a build that runs beside the bounded ones rather
	// than taking one of their places (Maven's, which mostly waits on the
	// network and the JVM's start).
	Apart bool
	// Build builds the runner into the cache.
	Build func(ctx context.Context) error
}

// Batch builds runners side by side and says what it does: the plan with
// its one-time cost where the cache has the last builds' times, the
// modules downloaded, each build with its time as it ends, the total, and
// progress in between so that it is never silent for long.
type Batch struct {
	// Cache is the runner cache (named in the log, and where the build
	// times are kept).
	Cache string
	// Jobs is how many builds run at once besides the apart ones
	// (DefaultJobs when 0).
	Jobs int
	// Log receives the lines; TTY is set when it is a terminal, where
	// progress is one line redrawn in place.
	Log io.Writer
	TTY bool
	// Quiet is the longest the log stays silent off a terminal
	// (DefaultQuiet when 0).
	Quiet time.Duration
	// Download, when set, fetches the Go modules the builds need before
	// they start and returns how many it fetched.
	Download func(ctx context.Context) (int, error)
}

// DefaultQuiet is the longest a batch's log stays silent off a terminal.
const DefaultQuiet = 30 * time.Second

// DefaultJobs is how many Go builds a batch runs at once by default: two,
// so that one cgo build compiling SQLite's C source (one gcc process, one
// CPU) does not leave the other CPU of a small machine idle; go build
// spreads each build's own packages over the CPUs already.
const DefaultJobs = 2

// Run builds jobs, at most b.Jobs at once (apart jobs besides), and returns
// the error of each that failed, by name. A cancelled ctx ends the builds
// and is each unfinished one's error.
func (b *Batch) Run(ctx context.Context, jobs []Job) map[string]error {
	errs := map[string]error{}
	if len(jobs) == 0 {
		return errs
	}
	bound := b.Jobs
	if bound <= 0 {
		bound = DefaultJobs
	}
	p := &progressLine{w: b.Log, tty: b.TTY, quiet: b.Quiet, active: map[string]time.Time{}, total: len(jobs)}
	if p.quiet <= 0 {
		p.quiet = DefaultQuiet
	}
	for _, l := range PlanLines(b.Cache, jobs, bound) {
		p.println(l)
	}
	began := time.Now()
	stop := p.start()
	defer stop()
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, bound)
	build := func(j Job) {
		defer wg.Done()
		if !j.Apart {
			defer func() { <-slots }()
		}
		t := time.Now()
		p.begin(j.Name)
		err := j.Build(ctx)
		p.end(j.Name, true)
		if err != nil {
			mu.Lock()
			errs[j.Name] = err
			mu.Unlock()
			if ctx.Err() == nil {
				p.println(fmt.Sprintf("building %s failed after %s (%d of %d)",
					j.Name, round(time.Since(t)), p.finished(), len(jobs)))
			}
			return
		}
		p.println(fmt.Sprintf("built %s in %s (%d of %d)", j.Name, round(time.Since(t)), p.finished(), len(jobs)))
	}
	// The apart builds (Maven's, which fetches its own) start at once; the
	// Go builds once their modules are here.
	for _, j := range jobs {
		if j.Apart {
			wg.Add(1)
			go build(j)
		}
	}
	if b.Download != nil {
		const what = "Go modules (downloading)"
		p.begin(what)
		t := time.Now()
		n, err := b.Download(ctx)
		p.end(what, false)
		switch {
		case err != nil && ctx.Err() == nil:
			// The builds say what is missing, each for itself.
			p.println(fmt.Sprintf("downloading the Go modules failed after %s: %v", round(time.Since(t)), err))
		case n > 0:
			p.println(fmt.Sprintf("downloaded %d Go modules in %s", n, round(time.Since(t))))
		}
	}
	for _, j := range jobs { // in order, as Estimate places them
		if j.Apart {
			continue
		}
		select {
		case slots <- struct{}{}:
			wg.Add(1)
			go build(j)
		case <-ctx.Done():
			mu.Lock()
			errs[j.Name] = ctx.Err()
			mu.Unlock()
		}
	}
	wg.Wait()
	stop()
	built := len(jobs) - len(errs)
	what := fmt.Sprintf("%d runner%s", built, plural(built))
	if len(errs) > 0 {
		what = fmt.Sprintf("%d of %d runners", built, len(jobs))
	}
	if ctx.Err() == nil {
		p.println(fmt.Sprintf("built %s in %s (one-time; cached in %s)", what, round(time.Since(began)), b.Cache))
	}
	return errs
}

// PlanLines returns the lines a batch starts with, each within planWidth
// columns: the runners it builds and, where the cache has the time of each
// one's last build, what they are estimated to take with bound builds at
// once (Estimate).
func PlanLines(cache string, jobs []Job, bound int) []string {
	names := make([]string, len(jobs))
	for i, j := range jobs {
		names[i] = j.Name
		if j.Note != "" {
			names[i] += " (" + j.Note + ")"
		}
	}
	lines := []string{fmt.Sprintf(
		"building %d runner%s the cache lacks for this source (one-time; later runs reuse them):",
		len(jobs), plural(len(jobs)))}
	lines = append(lines, wrap(strings.Join(names, ", "), "  ")...)
	if d, ok := Estimate(cache, jobs, bound); ok {
		return append(lines, wrap(fmt.Sprintf("estimated %s, from their last builds in %s", round(d), cache), "  ")...)
	}
	return append(lines, wrap("no build of them is recorded in "+cache+" to estimate from; it can take minutes "+
		"(the first on a machine compiles every driver, SQLite's C source included)", "  ")...)
}

// planWidth bounds the plan's lines.
const planWidth = textlayout.Width

// wrap breaks text at spaces into lines of at most planWidth columns, each
// starting with indent.
func wrap(text, indent string) []string {
	return strings.Split(strings.TrimSuffix(textlayout.Wrap(indent+text, planWidth, indent), "\n"), "\n")
}

// Estimate returns what building jobs would take, bound at once (apart jobs
// besides), from the time each one's last build took as recorded in cache;
// false when one has none recorded. The jobs are placed in order, each on
// the place that frees first, as Run starts them.
func Estimate(cache string, jobs []Job, bound int) (time.Duration, bool) {
	bound = max(bound, 1)
	free := make([]time.Duration, bound)
	var total time.Duration
	for _, j := range jobs {
		d, ok := Recorded(cache, j.Record)
		if !ok {
			return 0, false
		}
		if j.Apart {
			total = max(total, d)
			continue
		}
		i := slices.Index(free, slices.Min(free))
		free[i] += d
		total = max(total, free[i])
	}
	return total, true
}

// Recorded returns the time the last build of the runner kept under name
// (Job.Record) took with this cache; false when none is recorded.
func Recorded(cache, name string) (time.Duration, bool) {
	b, err := os.ReadFile(recordPath(cache, name))
	if err != nil {
		return 0, false
	}
	d, err := time.ParseDuration(strings.TrimSpace(string(b)))
	return d, err == nil && d > 0
}

// RecordBuild keeps the time a build of the runner name took, for Estimate;
// written whole or not at all, and a failure to keep it is not the
// build's.
func RecordBuild(cache, name string, d time.Duration) {
	path := recordPath(cache, name)
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), name+".*.tmp")
	if err != nil {
		return
	}
	_, err = fmt.Fprintln(f, d.Round(time.Millisecond))
	if cerr := f.Close(); err == nil && cerr == nil && os.Rename(f.Name(), path) == nil {
		return
	}
	os.Remove(f.Name())
}

// recordPath is where the build time of the runner name is kept.
func recordPath(cache, name string) string { return filepath.Join(cache, "build-times", name) }

// round rounds a build's time for the log: tenths of a second under ten
// seconds, else seconds.
func round(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// progressLine writes a batch's lines and, while builds run, its progress:
// on a terminal one line redrawn every second, elsewhere a line whenever
// the log has been silent for quiet.
type progressLine struct {
	w     io.Writer
	tty   bool
	quiet time.Duration

	mu     sync.Mutex
	active map[string]time.Time // what is under way, since when
	done   int                  // builds ended
	total  int
	last   time.Time // when the last line was written
	drawn  bool      // a progress line is on the terminal
}

// println writes line, first clearing a progress line drawn in place.
func (p *progressLine) println(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintln(p.w, line)
	p.last = time.Now()
}

func (p *progressLine) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

func (p *progressLine) begin(name string) {
	p.mu.Lock()
	p.active[name] = time.Now()
	p.mu.Unlock()
}

// end takes name off what is under way; build counts it as a build ended.
func (p *progressLine) end(name string, build bool) {
	p.mu.Lock()
	delete(p.active, name)
	if build {
		p.done++
	}
	p.mu.Unlock()
}

func (p *progressLine) finished() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}

// status is the progress: what is under way, for how long, oldest first.
func (p *progressLine) status(now time.Time) string {
	names := make([]string, 0, len(p.active))
	for n := range p.active {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return p.active[a].Compare(p.active[b]) })
	for i, n := range names {
		names[i] = fmt.Sprintf("%s %s", n, now.Sub(p.active[n]).Truncate(time.Second))
	}
	return fmt.Sprintf("building: %s (%d of %d done)", strings.Join(names, ", "), p.done, p.total)
}

// ttyWidth bounds the progress line on a terminal.
const ttyWidth = 79

// start starts the progress ticker and returns what stops it (safe to
// call twice).
func (p *progressLine) start() func() {
	p.mu.Lock()
	p.last = time.Now()
	p.mu.Unlock()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				p.tick(now)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(stop)
			<-done
			p.mu.Lock()
			p.clear()
			p.mu.Unlock()
		})
	}
}

func (p *progressLine) tick(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.active) == 0 {
		return
	}
	if p.tty {
		line := []rune(p.status(now))
		if len(line) > ttyWidth { // a wrapped line cannot be redrawn in place
			line = append(line[:ttyWidth-1], '…')
		}
		fmt.Fprint(p.w, "\r\x1b[K"+string(line))
		p.drawn = true
		return
	}
	if now.Sub(p.last) >= p.quiet {
		fmt.Fprintln(p.w, p.status(now))
		p.last = now
	}
}
