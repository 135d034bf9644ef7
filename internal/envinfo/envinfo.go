// Package envinfo collects facts about the machine and toolchain that a
// benchmark ran on. They are recorded as configuration lines ("key: value")
// at the top of a results file in the Go benchmark format. CPUTimes reads
// the machine's CPU time, for the share the hypervisor stole during a
// session (StealSince).
package envinfo

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// Unknown is the value of a fact that could not be determined.
const Unknown = "unknown"

// goVersionTimeout bounds how long "go env GOVERSION" may take.
const goVersionTimeout = 5 * time.Second

// Files the facts are read from.
const (
	cpuinfoFile     = "/proc/cpuinfo"
	osreleaseFile   = "/proc/sys/kernel/osrelease"
	etcOSRelease    = "/etc/os-release"
	usrOSRelease    = "/usr/lib/os-release"
	governorFile    = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
	clocksourceFile = "/sys/devices/system/clocksource/clocksource0/current_clocksource"
)

// Fact is one environment fact: a configuration key, lowercase without
// spaces, and its single-line value.
type Fact struct {
	Key, Value string
}

// String formats f as a configuration line of the Go benchmark format,
// "key: value", without a trailing newline.
func (f Fact) String() string {
	return f.Key + ": " + f.Value
}

// Collect returns the facts about this machine, in this order:
//
//   - goos, goarch: the orchestrator's runtime.GOOS and runtime.GOARCH
//   - cpu: the CPU model from /proc/cpuinfo, or "unknown"
//   - cores: runtime.NumCPU
//   - memory: MemTotal from /proc/meminfo, such as "23.4 GiB", or "unknown"
//   - kernel: /proc/sys/kernel/osrelease, or "unknown"
//   - os: PRETTY_NAME from /etc/os-release (or /usr/lib/os-release); omitted
//     if there is none
//   - go: the toolchain that builds the runners, as reported by
//     "go env GOVERSION"; if that fails, runtime.Version() followed by
//     " (orchestrator)"
//   - orchestrator-go: runtime.Version()
//   - cpu-governor: the scaling governor of cpu0; omitted if unavailable
//   - clocksource: the current clock source; omitted if unavailable
//
// Every value is a single line. Collect never fails: what it cannot read is
// reported as unknown or left out. ctx bounds the go command, which is also
// given at most 5 seconds.
func Collect(ctx context.Context) []Fact {
	src := source{readFile: readFile, goVersion: goEnvVersion, numCPU: runtime.NumCPU, memTotal: procs.MemTotal}
	return src.collect(ctx)
}

// source is where collect reads from; tests substitute fakes.
type source struct {
	// readFile returns the contents of a file.
	readFile func(name string) (string, error)
	// goVersion returns the output of "go env GOVERSION".
	goVersion func(ctx context.Context) (string, error)
	// numCPU returns the number of usable CPUs.
	numCPU func() int
	// memTotal returns the machine's memory in bytes (procs.MemTotal).
	memTotal func() (int64, error)
}

// readFile returns the contents of the named file.
func readFile(name string) (string, error) {
	b, err := os.ReadFile(name)
	return string(b), err
}

// goEnvVersion runs "go env GOVERSION" with a timeout.
func goEnvVersion(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, goVersionTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "env", "GOVERSION").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %w", err)
	}
	return string(out), nil
}

// collect gathers the facts from src.
func (src source) collect(ctx context.Context) []Fact {
	var facts []Fact
	add := func(key, value string) {
		facts = append(facts, Fact{Key: key, Value: value})
	}
	// read returns the contents of name, or "" if it cannot be read.
	read := func(name string) string {
		s, err := src.readFile(name)
		if err != nil {
			return ""
		}
		return s
	}

	add("goos", runtime.GOOS)
	add("goarch", runtime.GOARCH)
	add("cpu", orUnknown(parseCPUModel(read(cpuinfoFile))))
	add("cores", strconv.Itoa(src.numCPU()))
	add("memory", "unknown")
	if n, err := src.memTotal(); err == nil && n > 0 {
		facts[len(facts)-1].Value = fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	add("kernel", orUnknown(oneLine(read(osreleaseFile))))
	osName := parseOSRelease(read(etcOSRelease))
	if osName == "" {
		osName = parseOSRelease(read(usrOSRelease))
	}
	if osName != "" {
		add("os", osName)
	}
	goVersion := ""
	if out, err := src.goVersion(ctx); err == nil {
		goVersion = oneLine(out)
	}
	if goVersion == "" {
		goVersion = runtime.Version() + " (orchestrator)"
	}
	add("go", goVersion)
	add("orchestrator-go", runtime.Version())
	if g := oneLine(read(governorFile)); g != "" {
		add("cpu-governor", g)
	}
	if c := oneLine(read(clocksourceFile)); c != "" {
		add("clocksource", c)
	}
	return facts
}

// oneLine collapses every run of white space in s, newlines included, into
// one space and trims both ends.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// orUnknown returns s, or Unknown if s is empty.
func orUnknown(s string) string {
	if s == "" {
		return Unknown
	}
	return s
}

// parseCPUModel returns the CPU model named in the contents of
// /proc/cpuinfo, or "" if there is none.
func parseCPUModel(cpuinfo string) string {
	// The fields naming the model, best first: x86 and most others use
	// "model name"; older ARM kernels "Processor", MIPS "cpu model", POWER
	// "cpu", RISC-V "uarch".
	keys := [...]string{"model name", "Processor", "cpu model", "cpu", "uarch"}
	fields := make(map[string]string)
	for line := range strings.Lines(cpuinfo) {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.TrimSpace(key)
		value = oneLine(value)
		if _, seen := fields[key]; !seen && value != "" {
			fields[key] = value
		}
	}
	for _, key := range keys {
		if v := fields[key]; v != "" {
			return v
		}
	}
	return ""
}

// parseOSRelease returns the operating system's name from the contents of
// an os-release file: PRETTY_NAME, else NAME and VERSION, or "" if it names
// none. Values may be quoted with " or ' and use backslash escapes.
func parseOSRelease(s string) string {
	vars := make(map[string]string)
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		vars[strings.TrimSpace(key)] = oneLine(unquote(strings.TrimSpace(value)))
	}
	if p := vars["PRETTY_NAME"]; p != "" {
		return p
	}
	return oneLine(vars["NAME"] + " " + vars["VERSION"])
}

// unquote removes shell-style quotes from an os-release value. Inside double
// quotes, or outside quotes, a backslash escapes the next character.
func unquote(v string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case c == quote:
			quote = 0
		case c == '\\' && quote != '\'' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
