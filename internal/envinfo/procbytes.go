package envinfo

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ProcBytes returns, in bytes, the value of the "Key: N kB" line named key
// in a Linux /proc file such as /proc/meminfo or /proc/self/status.
func ProcBytes(path, key string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, err := parseProcBytes(string(b), key)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// parseProcBytes finds the line key in the contents of a /proc file and
// returns its value in bytes: a number, then a unit of kB, mB or gB (any
// case; powers of 1024, as the kernel means them) or none (bytes).
func parseProcBytes(contents, key string) (int64, error) {
	for line := range strings.Lines(contents) {
		k, value, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) != key {
			continue
		}
		f := strings.Fields(value)
		if len(f) == 0 {
			return 0, fmt.Errorf("%s has no value", key)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err == nil && n < 0 {
			err = fmt.Errorf("negative")
		}
		if err != nil {
			return 0, fmt.Errorf("%s %q: %w", key, f[0], err)
		}
		unit := int64(1)
		if len(f) > 1 {
			switch strings.ToLower(f[1]) {
			case "kb":
				unit = 1 << 10
			case "mb":
				unit = 1 << 20
			case "gb":
				unit = 1 << 30
			default:
				return 0, fmt.Errorf("%s: unknown unit %q", key, f[1])
			}
		}
		return n * unit, nil
	}
	return 0, fmt.Errorf("no %s line", key)
}
