package session

import (
	"strings"

	"github.com/sqlbench/sqlbench/targets"
)

// Unavailable returns why target t cannot run on this machine, or "" when
// it can. It checks what can be known without building: whether the driver
// can be obtained at all, the Go toolchain, a C compiler for cgo drivers,
// a JDK and Maven for JDBC targets, and helper programs.
func Unavailable(t targets.Spec, env Host) string {
	if t.Unobtainable != "" {
		return t.Unobtainable
	}
	if t.JVM {
		var missing []string
		for _, tool := range []string{"java", "mvn"} {
			if _, err := env.LookPath(tool); err != nil {
				missing = append(missing, tool)
			}
		}
		if len(missing) > 0 {
			return "needs a JDK 17+ and Maven to build and run the JDBC runner (" + strings.Join(missing, " and ") +
				" not on PATH; install default-jdk-headless maven)"
		}
		return ""
	}
	if _, err := env.LookPath("go"); err != nil {
		return "needs the Go toolchain (go on PATH) to build its runner"
	}
	if t.Cgo {
		cc := strings.Fields(env.Getenv("CC"))
		name := "gcc"
		if len(cc) > 0 {
			name = cc[0]
		}
		if _, err := env.LookPath(name); err != nil {
			return "needs a C compiler for cgo (" + name + " not found; install gcc)"
		}
	}
	if t.External != "" {
		if set := env.Getenv(t.ExternalEnv); set != "" {
			if _, err := env.LookPath(set); err != nil {
				return "needs the " + t.External + " program: $" + t.ExternalEnv + " (" + set + ") is not an executable"
			}
		} else if _, err := env.LookPath(t.External); err != nil {
			how := ""
			if t.ExternalHow != "" {
				how = " (" + t.ExternalHow + ")"
			}
			return "needs the " + t.External + " program: set " + t.ExternalEnv + " or put it on PATH" + how
		}
	}
	return ""
}
