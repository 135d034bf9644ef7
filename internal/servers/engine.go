package servers

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// engine is what Start needs from one kind of server.
type engine interface {
	// binaries lists the programs whose build identifies a template; none
	// means initializing is as quick as copying a template would be.
	binaries() []string
	// initialize creates the data directory, r.srv.Dir/data.
	initialize(ctx context.Context, r *run) error
	// configure adapts an initialized (or copied) data directory and
	// checks what the server accepts, before the first launch.
	configure(ctx context.Context, r *run) error
	// command returns the server's command line for r.srv.Port.
	command(r *run) (path string, args []string)
	// socket returns the unix socket path for a directory and port.
	socket(dir string, port int) string
	// logs lists the files the server writes its messages to.
	logs(dir string) []string
	// connectAdmin connects as the superuser over the unix socket.
	connectAdmin(ctx context.Context, s *Server) (admin, error)
	// userPing connects as the bench user over TCP with its password.
	userPing(ctx context.Context, s *Server) error
}

// admin is a superuser connection to a freshly started server.
type admin interface {
	// bootstrap creates the bench user and database.
	bootstrap(ctx context.Context, s *Server) error
	// readBack fills s.Version and s.Vars from the server.
	readBack(ctx context.Context, s *Server) error
	close()
}

// newEngine finds the binaries for kind.
func newEngine(kind Kind) (engine, error) {
	switch kind.Base() {
	case KindMariaDB:
		return findMariaDB()
	case KindPostgres:
		return findPostgres()
	case KindTiDB:
		return findTiDB()
	}
	return nil, fmt.Errorf("unknown server kind %q (valid: %s)", kind, joinNames(Kinds()))
}

// packageName is the Debian package that provides kind's server.
func packageName(kind Kind) string {
	if kind.Base() == KindPostgres {
		return "postgresql"
	}
	return "mariadb-server"
}

// notInstalled is the error for a missing program.
func notInstalled(kind Kind, program string) error {
	pkg := packageName(kind)
	return fmt.Errorf("%s is not installed: %s not found (apt-get install %s)", pkg, program, pkg)
}

// findProgram returns the first of names found on PATH or in dirs, or "".
func findProgram(names, dirs []string) string {
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
		}
		for _, d := range dirs {
			p := filepath.Join(d, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
				return p
			}
		}
	}
	return ""
}

// systemBinDirs are searched after PATH, which may lack the sbin directories.
func systemBinDirs() []string {
	return []string{"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin", "/sbin", "/bin"}
}

// Installed returns nil when kind's server can be started here, else what
// is missing (the program and the package that provides it).
func Installed(kind Kind) error {
	_, err := newEngine(kind)
	if err == nil && kind.Clustered() {
		_, err = newCluster(kind)
	}
	return err
}
