package envinfo

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const x86CPUInfo = `processor	: 0
vendor_id	: GenuineIntel
cpu family	: 6
model		: 158
model name	: Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz
stepping	: 10
cpu MHz		: 800.024
cache size	: 12288 KB
flags		: fpu vme de pse tsc msr pae mce cx8

processor	: 1
vendor_id	: GenuineIntel
model name	: Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz
`

const arm64CPUInfo = `processor	: 0
BogoMIPS	: 48.00
Features	: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid
CPU implementer	: 0x41
CPU architecture: 8
CPU variant	: 0x0
CPU part	: 0xd08
CPU revision	: 3
`

const armv7CPUInfo = `Processor	: ARMv7 Processor rev 10 (v7l)
processor	: 0
BogoMIPS	: 1581.05
Hardware	: Freescale i.MX 6Quad/DualLite (Device Tree)
`

const ppc64CPUInfo = `processor	: 0
cpu		: POWER9 (architected), altivec supported
clock		: 2200.000000MHz
revision	: 2.2 (pvr 004e 1202)

timebase	: 512000000
platform	: pSeries
`

func TestParseCPUModel(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"x86", x86CPUInfo, "Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz"},
		{"amd spaces", "model name\t:   AMD   EPYC 7B13  64-Core Processor  \n", "AMD EPYC 7B13 64-Core Processor"},
		{"arm64 without model", arm64CPUInfo, ""},
		{"armv7", armv7CPUInfo, "ARMv7 Processor rev 10 (v7l)"},
		{"ppc64", ppc64CPUInfo, "POWER9 (architected), altivec supported"},
		{"empty model name", "model name\t:\ncpu\t: POWER8\n", "POWER8"},
		{"crlf", "model name : Some CPU\r\n", "Some CPU"},
		{"empty", "", ""},
		{"garbage", "no colons here\n\n", ""},
	}
	for _, tt := range tests {
		if got := parseCPUModel(tt.in); got != tt.want {
			t.Errorf("%s: parseCPUModel = %q, want %q", tt.name, got, tt.want)
		}
	}
}

const debianOSRelease = `PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
HOME_URL="https://www.debian.org/"
`

const alpineOSRelease = `NAME="Alpine Linux"
ID=alpine
VERSION_ID=3.20.3
PRETTY_NAME="Alpine Linux v3.20"
HOME_URL="https://alpinelinux.org/"
`

func TestParseOSRelease(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"debian", debianOSRelease, "Debian GNU/Linux 12 (bookworm)"},
		{"alpine", alpineOSRelease, "Alpine Linux v3.20"},
		{"unquoted", "PRETTY_NAME=Arch\n", "Arch"},
		{"single quotes", "PRETTY_NAME='Fedora Linux 40 (Server Edition)'\n", "Fedora Linux 40 (Server Edition)"},
		{"escapes", `PRETTY_NAME="Say \"hi\" \\ \$HOME"` + "\n", `Say "hi" \ $HOME`},
		{"comments and blanks", "# comment\n\n  PRETTY_NAME=\"Ubuntu 24.04.1 LTS\"  \n", "Ubuntu 24.04.1 LTS"},
		{"no pretty name", "NAME=\"Foo OS\"\nVERSION=\"2 (x)\"\n", "Foo OS 2 (x)"},
		{"empty pretty name", "PRETTY_NAME=\"\"\nNAME=Bar\n", "Bar"},
		{"spaces collapsed", "PRETTY_NAME=\"A   B\tC\"\n", "A B C"},
		{"nothing", "ID=x\n", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := parseOSRelease(tt.in); got != tt.want {
			t.Errorf("%s: parseOSRelease = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// keys returns the keys of facts.
func keys(facts []Fact) []string {
	var k []string
	for _, f := range facts {
		k = append(k, f.Key)
	}
	return k
}

// fakeFiles returns a readFile function serving files.
func fakeFiles(files map[string]string) func(string) (string, error) {
	return func(name string) (string, error) {
		if s, ok := files[name]; ok {
			return s, nil
		}
		return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
}

func TestCollectFromFiles(t *testing.T) {
	src := source{
		readFile: fakeFiles(map[string]string{
			cpuinfoFile:     x86CPUInfo,
			osreleaseFile:   "6.8.0-45-generic\n",
			etcOSRelease:    debianOSRelease,
			governorFile:    "performance\n",
			clocksourceFile: "tsc\n",
		}),
		goVersion: func(context.Context) (string, error) { return "go1.26.8\n", nil },
		numCPU:    func() int { return 12 },
		memTotal:  func() (int64, error) { return 24684096 << 10, nil },
	}
	want := []Fact{
		{"goos", runtime.GOOS},
		{"goarch", runtime.GOARCH},
		{"cpu", "Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz"},
		{"cores", "12"},
		{"memory", "23.5 GiB"},
		{"kernel", "6.8.0-45-generic"},
		{"os", "Debian GNU/Linux 12 (bookworm)"},
		{"go", "go1.26.8"},
		{"orchestrator-go", runtime.Version()},
		{"cpu-governor", "performance"},
		{"clocksource", "tsc"},
	}
	if got := src.collect(context.Background()); !slices.Equal(got, want) {
		t.Errorf("collect =\n%v\nwant\n%v", got, want)
	}
}

func TestCollectMissingFiles(t *testing.T) {
	src := source{
		readFile:  fakeFiles(map[string]string{usrOSRelease: alpineOSRelease}),
		goVersion: func(context.Context) (string, error) { return "", errors.New("no go") },
		numCPU:    func() int { return 1 },
		memTotal:  func() (int64, error) { return 0, errors.New("no /proc") },
	}
	want := []Fact{
		{"goos", runtime.GOOS},
		{"goarch", runtime.GOARCH},
		{"cpu", "unknown"},
		{"cores", "1"},
		{"memory", "unknown"},
		{"kernel", "unknown"},
		{"os", "Alpine Linux v3.20"},
		{"go", runtime.Version() + " (orchestrator)"},
		{"orchestrator-go", runtime.Version()},
	}
	if got := src.collect(context.Background()); !slices.Equal(got, want) {
		t.Errorf("collect =\n%v\nwant\n%v", got, want)
	}

	src.readFile = fakeFiles(nil)
	if k := keys(src.collect(context.Background())); slices.Contains(k, "os") {
		t.Errorf("collect without os-release returned keys %q, want no os", k)
	}
}

func TestCollect(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads Linux /proc and /sys files")
	}
	facts := Collect(context.Background())
	got := keys(facts)

	// The keys must appear in the documented order, with only the optional
	// ones allowed to be missing.
	allKeys := []string{
		"goos", "goarch", "cpu", "cores", "memory", "kernel", "os",
		"go", "orchestrator-go", "cpu-governor", "clocksource",
	}
	var want []string
	for _, k := range allKeys {
		switch k {
		case "os":
			_, errEtc := os.Stat(etcOSRelease)
			_, errUsr := os.Stat(usrOSRelease)
			if errEtc != nil && errUsr != nil {
				continue
			}
		case "cpu-governor":
			if _, err := os.Stat(governorFile); err != nil {
				continue
			}
		case "clocksource":
			if _, err := os.Stat(clocksourceFile); err != nil {
				continue
			}
		}
		want = append(want, k)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Collect keys = %q, want %q", got, want)
	}

	for _, f := range facts {
		if f.Value == "" || strings.ContainsAny(f.Value, "\n\r\t") || strings.TrimSpace(f.Value) != f.Value {
			t.Errorf("fact %q has value %q, want a non-empty single trimmed line", f.Key, f.Value)
		}
		if f.Key == "" || f.Key != strings.ToLower(f.Key) || strings.ContainsAny(f.Key, " \t:") {
			t.Errorf("bad key %q", f.Key)
		}
		t.Log(f)
	}
	// Linux always has these; the CPU model may be missing on some
	// architectures.
	for _, f := range facts {
		if (f.Key == "memory" || f.Key == "kernel") && f.Value == Unknown {
			t.Errorf("%s is unknown on Linux", f.Key)
		}
	}
}

func TestFactString(t *testing.T) {
	if got, want := (Fact{"goos", "linux"}).String(), "goos: linux"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}
