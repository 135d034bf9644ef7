package cli

import (
	"errors"
	"io/fs"
	"time"

	"github.com/spf13/pflag"

	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// scriptFlags are sqlbench run's flags of a script workload (defined by defineRun).
type scriptFlags struct {
	scripts []string
	setup   string
	mode    string
	clients int
	time    time.Duration
}

// apply loads the scripts into cfg.Script. A flag of a script without
// --script, an unreadable file or a script that does not parse is bad
// input: one line naming the file (and line).
func (f *scriptFlags) apply(fl *pflag.FlagSet, cfg *session.Config) error {
	if len(f.scripts) == 0 {
		for _, name := range []string{"setup", "query-mode", "clients", "time"} {
			if fl.Changed(name) {
				return usagef("--%s needs --script", name)
			}
		}
		return nil
	}
	mode, err := script.ParseMode(f.mode)
	if err != nil {
		return usagef("--query-mode %v", err)
	}
	if f.clients < 1 || f.clients > script.MaxClients {
		return usagef("--clients must be from 1 to %d, got %d", script.MaxClients, f.clients)
	}
	if f.time < 0 || f.time > script.MaxTime || fl.Changed("time") && f.time < time.Millisecond {
		return usagef("--time must be from 1ms to %v, got %v", script.MaxTime, f.time)
	}
	spec := &script.Spec{Mode: mode, Clients: f.clients, Time: f.time}
	for _, arg := range f.scripts {
		src, err := script.Load(arg)
		if err != nil {
			return usagef("--script: %v", fileError(err))
		}
		spec.Scripts = append(spec.Scripts, src)
	}
	if f.setup != "" {
		src, err := script.Load(f.setup)
		if err != nil {
			return usagef("--setup: %v", fileError(err))
		}
		src.Weight = 0
		spec.Setup = &src
	}
	if _, err := script.Compile(*spec); err != nil {
		return usagef("%v", err)
	}
	cfg.Script = spec
	return nil
}

// fileError shortens an error reading a file to its path and reason.
func fileError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return errors.New(pe.Path + ": " + pe.Err.Error())
	}
	return err
}
