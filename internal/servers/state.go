package servers

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultStateDir is where `sqlbench server` keeps its state files:
// os.UserCacheDir()/sqlbench/servers, or a directory under os.TempDir() when
// there is no cache directory.
func DefaultStateDir() string {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		return filepath.Join(os.TempDir(), fmt.Sprintf("sqlbench-%d", os.Getuid()), "servers")
	}
	return filepath.Join(base, "sqlbench", "servers")
}

// stateFile is the file holding s in dir, named after s.Dir.
func stateFile(dir string, s *Server) (string, error) {
	if s == nil || s.Dir == "" {
		return "", errors.New("server state: server has no directory")
	}
	return filepath.Join(dir, filepath.Base(s.Dir)+".json"), nil
}

// SaveState writes s as JSON to a file in dir (created 0700 if missing). The
// file is 0600 because it holds the password, and is replaced atomically.
func SaveState(dir string, s *Server) error {
	path, err := stateFile(dir, s)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encode server state: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create state directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".state-*")
	if err != nil {
		return fmt.Errorf("write server state: %w", err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("write server state: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write server state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write server state: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write server state: %w", err)
	}
	return nil
}

// LoadStates reads every server state file in dir, in file name order. A
// missing dir holds no servers. It returns every server it could read; if
// some files could not be read, the error names each of them.
func LoadStates(dir string) ([]*Server, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read state directory: %w", err)
	}
	var servers []*Server
	var errs []error
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("read server state: %w", err))
			continue
		}
		s := &Server{}
		if err := json.Unmarshal(data, s); err != nil {
			errs = append(errs, fmt.Errorf("read server state %s: %w", path, err))
			continue
		}
		servers = append(servers, s)
	}
	return servers, joinErrors(errs)
}

// RemoveState deletes s's state file from dir, and the records of its
// users; a missing file is not an error.
func RemoveState(dir string, s *Server) error {
	path, err := stateFile(dir, s)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove server state: %w", err)
	}
	os.RemoveAll(usersDir(dir, s)) // its users' records (see Use)
	return nil
}
