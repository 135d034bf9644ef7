package link

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Netem reports whether this kernel has netem, the qdisc a link through
// a namespace for the server (a veth pair with a netem qdisc) would need,
// and says how it was told: the kernel's configuration
// (/proc/config.gz, else /boot/config-RELEASE), its loaded modules, and
// the module file. sqlbench emulates links with Toxiproxy either way (the
// namespace design is not built: it could not be tested on a kernel
// without netem); the results record this answer.
func Netem() (bool, string) { return netem("/proc", "/boot", "/sys/module", "/lib/modules") }

func netem(proc, boot, sysmod, libmod string) (bool, string) {
	var u unix.Utsname
	release := ""
	if unix.Uname(&u) == nil {
		release = unix.ByteSliceToString(u.Release[:])
	}
	if _, err := os.Stat(filepath.Join(sysmod, "sch_netem")); err == nil {
		return true, "netem: module sch_netem loaded"
	}
	if release != "" {
		mods, _ := filepath.Glob(filepath.Join(libmod, release, "kernel/net/sched/sch_netem.ko*"))
		if len(mods) > 0 {
			return true, "netem: module " + mods[0]
		}
	}
	for _, cfg := range []string{filepath.Join(proc, "config.gz"), filepath.Join(boot, "config-"+release)} {
		v, err := configValue(cfg, "CONFIG_NET_SCH_NETEM")
		if err != nil {
			continue
		}
		if v == "y" || v == "m" {
			return true, fmt.Sprintf("netem: CONFIG_NET_SCH_NETEM=%s in %s", v, cfg)
		}
		return false, fmt.Sprintf("netem absent: CONFIG_NET_SCH_NETEM is not set in %s", cfg)
	}
	return false, "netem absent: no kernel configuration to read and no sch_netem module"
}

// configValue returns key's value in a kernel configuration file (gzipped
// when its name ends in .gz): "" when it is not set.
func configValue(path, key string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", path, err)
		}
		defer z.Close()
		r = z
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key+"="); ok {
			return v, nil
		}
	}
	return "", sc.Err()
}
