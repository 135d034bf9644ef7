package session

import (
	"io"
	"os/exec"
)

// fakeEnv is a machine with go, gcc, java and mvn on PATH, nothing else,
// logging to log.
func fakeEnv(log io.Writer) Host {
	return Host{
		Getenv: func(string) string { return "" },
		LookPath: func(name string) (string, error) {
			switch name {
			case "go", "gcc", "java", "mvn":
				return "/usr/bin/" + name, nil
			}
			return "", exec.ErrNotFound
		},
		Dir: "/nonexistent",
		Log: log,
	}
}
