package cli

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/sqlbench/sqlbench/internal/redact"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// errNoServer marks a `server stop KIND` that found no such server to
// stop: exit status 1, as the input was valid but there was nothing to do
// what it asked. `server stop` and `server stop all` with nothing to stop
// succeed: the wanted state, no server running, holds.
var errNoServer = errors.New("nothing stopped")

const serverUsage = `usage:
  sqlbench server start mariadb|postgres|tidb [--profile durable|fast|seed]
  sqlbench server stop [mariadb|postgres|tidb|all]
  sqlbench server status
`

// serverCmd starts, stops and lists throwaway servers that outlive the
// command, for use with sqlbench run --dsn or by hand. Their state (with
// the password) is kept in files readable only by the user.
func serverCmd(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		return usagef("server: missing subcommand (start, stop, status)")
	}
	fs := newFlags("server " + args[0])
	profile := fs.String("profile", "durable", "server configuration: durable, fast or seed")
	stateDir := fs.String("state", servers.DefaultStateDir(), "where running servers are recorded")
	sub, rest := args[0], args[1:]
	var what string
	if len(rest) > 0 && rest[0] != "" && rest[0][0] != '-' {
		what, rest = rest[0], rest[1:]
	}
	if err := parseFlags(fs, rest, env); err != nil {
		return err
	}
	switch sub {
	case "start":
		kind, err := servers.ParseKind(what)
		if err != nil {
			return usagef("server start: %v", err)
		}
		prof, err := servers.ParseProfile(*profile)
		if err != nil {
			return usagef("server start: --profile: %v", err)
		}
		// Clean up after sqlbench processes that died with servers of
		// theirs; a failure to is worth a line, not a refusal to start.
		if _, err := servers.Sweep(env.Stderr); err != nil {
			fmt.Fprintln(env.Stderr, "sqlbench:", oneLine(err.Error()))
		}
		srv, err := servers.Start(ctx, servers.Options{Kind: kind, Profile: prof, Detach: true})
		if err != nil {
			return err
		}
		if err := servers.SaveState(*stateDir, srv); err != nil {
			srv.Stop()
			return err
		}
		fmt.Fprintf(env.Stdout, "%s %s (%s profile) ready in %s, pid %d\n", kind, srv.Version, prof, srv.Ready.Round(1e6), srv.PID)
		fmt.Fprintf(env.Stdout, "tcp:  %s\nunix: %s\n", srv.DSN("tcp"), srv.DSN("unix"))
		fmt.Fprintf(env.Stdout, "use: sqlbench run --db %s --dsn %s='%s'\n", kind.DB(), kind.DB(), srv.DSN("tcp"))
		return nil
	case "stop":
		if what == "" {
			what = "all"
		}
		if what != "all" {
			kind, err := servers.ParseKind(what)
			if err != nil {
				return usagef("server stop: %v", err)
			}
			what = string(kind)
		}
		all, err := servers.LoadStates(*stateDir)
		if err != nil {
			return err
		}
		stopped := 0
		for _, s := range all {
			if what != "all" && string(s.Kind) != what {
				continue
			}
			if err := s.Stop(); err != nil {
				return fmt.Errorf("stop %s (pid %d): %w", s.Kind, s.PID, err)
			}
			if err := servers.RemoveState(*stateDir, s); err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "stopped %s on port %d\n", s.Kind, s.Port)
			stopped++
		}
		switch {
		case stopped > 0:
		case what == "all":
			fmt.Fprintln(env.Stdout, "no server to stop")
		default:
			return fmt.Errorf("%w: no %s server started by sqlbench server start", errNoServer, what)
		}
		return nil
	case "status":
		all, err := servers.LoadStates(*stateDir)
		if err != nil {
			return err
		}
		if len(all) == 0 {
			fmt.Fprintln(env.Stdout, "no server started by sqlbench server start")
			return nil
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "KIND\tPROFILE\tPID\tSTATE\tTCP DSN\tSOCKET")
		for _, s := range all {
			state := "running"
			if !s.Alive() {
				state = "gone"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", s.Kind, s.Profile, s.PID, state, redact.DSN(s.DSN("tcp")), s.Socket)
		}
		return tw.Flush()
	default:
		return usagef("server: unknown subcommand %q (valid: start, stop, status)", sub)
	}
}
