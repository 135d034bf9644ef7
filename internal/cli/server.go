package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/pick"
	"github.com/sqlbench/sqlbench/internal/redact"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// errNoServer marks a `server stop KIND` or `server dsn KIND` that found no
// such server: exit status 1, as the input was valid but there was nothing
// to do what it asked. `server stop --all` with nothing to stop succeeds:
// the wanted state, no server running, holds.
var errNoServer = errors.New("no such server")

// serverCommand is sqlbench server: it starts, stops and lists throwaway
// servers that outlive the command, for use with sqlbench run --dsn or by
// hand. Their state (with the password) is kept in files readable only by
// the user.
func serverCommand(ctx context.Context, env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "server start|stop|status|dsn",
		Short: "start, stop or list throwaway MariaDB/PostgreSQL/TiDB servers and clusters",
		Long: `Server starts, stops and lists throwaway MariaDB and PostgreSQL servers (from
the distribution's binaries), TiDB servers (built once from TiDB's pinned Go
module; see docs/tidb.md) and clusters (galera: three MariaDB Galera nodes;
postgres-sync: a PostgreSQL primary with a synchronous standby; see
docs/clusters.md), loopback only, that outlive the command, for use with
sqlbench run --dsn or by hand.`,
		Example: `  sqlbench server start postgres --profile fast
  sqlbench server status
  sqlbench server stop --all      # every server sqlbench server start started`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("server: missing subcommand (start, stop, status, dsn)")
			}
			return usagef("server: unknown subcommand %q%s", args[0],
				pick.DidYouMean(args[0], []string{"start", "stop", "status", "dsn"}))
		},
		RunE: func(*cobra.Command, []string) error { return nil },
	}
	stateDir := c.PersistentFlags().String("state", servers.DefaultStateDir(), "where running servers are recorded "+
		"(default: sqlbench/servers in the user cache directory, $XDG_CACHE_HOME or ~/.cache)")
	c.PersistentFlags().Lookup("state").DefValue = "" // the machine's own path, said in words
	start := &cobra.Command{
		Use:   "start mariadb|postgres|tidb|galera|postgres-sync [--profile PROFILE]",
		Short: "start a throwaway server and print its DSNs (password redacted: see server dsn)",
		Example: "  sqlbench server start mariadb\n  sqlbench server start postgres --profile fast\n  sqlbench " +
			"server start tidb      # builds TiDB once from its pinned Go module (docs/tidb.md)\n  sqlbench server " +
			"start galera    # three MariaDB Galera nodes (docs/clusters.md)",
		Args: oneOptionalArg,
	}
	profile := start.Flags().String("profile", "durable", "server configuration: durable, fast or seed")
	complete(start, "profile", func() []string { return names(servers.Profiles()) })
	start.ValidArgs = serverKinds()
	start.RunE = func(_ *cobra.Command, args []string) error {
		if !start.Flags().Changed("profile") {
			*profile = ""
		}
		return serverStart(ctx, firstArg(args), *profile, *stateDir, env)
	}
	stop := &cobra.Command{
		Use:   "stop mariadb|postgres|tidb|galera|postgres-sync | --all",
		Short: "stop the servers of a kind, or --all, that sqlbench server start started",
		Long: `Stop stops the servers of a kind that sqlbench server start started, or every one
with --all. A server a live sqlbench session is using (run or reproduce with
--dsn on it) is not stopped, and named, unless --force.`,
		Example: "  sqlbench server stop postgres\n  sqlbench server stop --all\n  sqlbench server stop mariadb " +
			"--force   # even while a session uses it",
		Args:      oneOptionalArg,
		ValidArgs: serverKinds(),
	}
	stopAll := stop.Flags().Bool("all", false, "stop every server sqlbench server start started")
	force := stop.Flags().Bool("force", false, "stop a server even while a live sqlbench session uses it")
	stop.RunE = func(_ *cobra.Command, args []string) error {
		return serverStop(firstArg(args), *stopAll, *force, *stateDir, env)
	}
	status := &cobra.Command{
		Use:     "status",
		Short:   "list the servers sqlbench server start started",
		Example: "  sqlbench server status",
		Args:    noArgs,
		RunE:    func(*cobra.Command, []string) error { return serverStatus(*stateDir, env) },
	}
	dsn := &cobra.Command{
		Use:   "dsn mariadb|postgres|tidb|galera|postgres-sync [--net tcp|unix]",
		Short: "print the DSN, password included, of a server sqlbench server start started",
		Long: `Dsn prints the DSN of the running server of a kind that sqlbench server start
started, password included: the one command that prints it (server start and
status show it redacted), for use in $(...) as server start suggests.`,
		Example: "  sqlbench server dsn mariadb --net unix\n  sqlbench run --db postgres --dsn " +
			"postgres=\"$(sqlbench server dsn postgres)\"",
		Args:      exactlyOneKind,
		ValidArgs: serverKinds(),
	}
	network := dsn.Flags().String("net", "tcp", "the transport: tcp or unix")
	complete(dsn, "net", func() []string { return []string{"tcp", "unix"} })
	dsn.RunE = func(_ *cobra.Command, args []string) error { return serverDSN(args[0], *network, *stateDir, env) }
	c.AddCommand(start, stop, status, dsn)
	return c
}

// oneOptionalArg refuses more than one argument.
func oneOptionalArg(c *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usagef("%s: unexpected argument %q", c.CommandPath(), args[1])
	}
	return nil
}

// firstArg returns args[0], or "" when there is none.
func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// serverStart starts a throwaway server of kind what and records it;
// profile "" is the default one.
func serverStart(ctx context.Context, what, profile, stateDir string, env Env) error {
	kind, err := servers.ParseKind(what)
	if err != nil {
		return usagef("server start: %v", err)
	}
	if !kind.Profiled() && profile != "" {
		return usagef("server start %s: --profile: %s runs on its own defaults; the profiles configure MariaDB and "+
			"PostgreSQL", kind, kind)
	}
	prof, err := servers.ParseProfile(profile)
	if err != nil {
		return usagef("server start: --profile: %v", err)
	}
	profiled := ""
	if kind.Profiled() {
		profiled = fmt.Sprintf(" (%s profile)", prof)
	} else {
		prof = ""
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
	if err := servers.SaveState(stateDir, srv); err != nil {
		srv.Stop()
		return err
	}
	fmt.Fprintf(env.Stdout, "%s %s%s ready in %s, pid %d\n", kind, srv.Version, profiled, srv.Ready.Round(1e6), srv.PID)
	if srv.Topology != "" {
		fmt.Fprintf(env.Stdout, "%s\n", srv.Topology)
	}
	// The password stays off the terminal and out of logs: server dsn
	// prints it when asked.
	fmt.Fprintf(env.Stdout, "tcp:  %s\nunix: %s\n", shownDSN(srv, "tcp"), shownDSN(srv, "unix"))
	state := ""
	if stateDir != servers.DefaultStateDir() {
		state = " --state " + shellQuote(stateDir)
	}
	fmt.Fprintf(env.Stdout, "use: sqlbench run --db %s --dsn %s=\"$(sqlbench server dsn %s%s)\"\n", kind.DB(),
		kind.DB(), kind, state)
	return nil
}

// serverKinds are the kinds of server sqlbench server starts, for the
// shell completion: the database kinds, TiDB and the clusters.
func serverKinds() []string {
	return append(names(servers.Kinds()), string(servers.KindTiDB), string(servers.KindGalera),
		string(servers.KindPostgresSync))
}

// errInUse marks a server stop that left a server a live session uses:
// exit status 1, the servers are named.
var errInUse = errors.New("in use")

// serverStop stops the servers of kind what, or every one with all, but
// for those a live session uses, unless force.
func serverStop(what string, all, force bool, stateDir string, env Env) error {
	switch {
	case what == "all":
		return usagef("server stop: stopping every server takes --all")
	case what == "" && !all:
		return usagef("server stop: name the kind of server to stop (%s), or --all", strings.Join(serverKinds(), ", "))
	case what != "" && all:
		return usagef("server stop: name a kind or --all, not both")
	case all:
		what = "all"
	default:
		kind, err := servers.ParseKind(what)
		if err != nil {
			return usagef("server stop: %v", err)
		}
		what = string(kind)
	}
	recorded, err := servers.LoadStates(stateDir)
	if err != nil {
		return err
	}
	stopped := 0
	var busy []string
	for _, s := range recorded {
		if what != "all" && string(s.Kind) != what {
			continue
		}
		if use := servers.InUse(stateDir, s); use != "" && !force {
			busy = append(busy, use)
			continue
		}
		if err := s.Stop(); err != nil {
			return fmt.Errorf("stop %s (pid %d): %w", s.Kind, s.PID, err)
		}
		if err := servers.RemoveState(stateDir, s); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "stopped %s on port %d\n", s.Kind, s.Port)
		stopped++
	}
	switch {
	case len(busy) > 0:
		return fmt.Errorf("%w: not stopped: %s; pass --force to stop it anyway", errInUse, strings.Join(busy, "; "))
	case stopped > 0:
	case what == "all":
		fmt.Fprintln(env.Stdout, "no server to stop")
	default:
		return fmt.Errorf("%w: no %s server started by sqlbench server start", errNoServer, what)
	}
	return nil
}

// serverStatus lists the servers sqlbench server start started.
func serverStatus(stateDir string, env Env) error {
	all, err := servers.LoadStates(stateDir)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		fmt.Fprintln(env.Stdout, "no server started by sqlbench server start")
		return nil
	}
	// The addresses go on lines of their own, below their server: beside
	// it they pass 100 columns.
	const row = "%-10s%-9s%-9s%s\n"
	fmt.Fprintf(env.Stdout, row, "KIND", "PROFILE", "PID", "STATE")
	for _, s := range all {
		state := "running"
		if !s.Alive() {
			state = "gone"
		}
		fmt.Fprintf(env.Stdout, row, s.Kind, cmp.Or(string(s.Profile), "-"), strconv.Itoa(s.PID), state)
		fmt.Fprintf(env.Stdout, "  tcp: %s\n  socket: %s\n", shownDSN(s, "tcp"), s.Socket)
		for _, n := range s.Nodes {
			state := "running"
			if !n.Alive() {
				state = "gone"
			}
			fmt.Fprintf(env.Stdout, row, "  "+n.Node, "", strconv.Itoa(n.PID), state)
			fmt.Fprintf(env.Stdout, "    tcp: %s\n    socket: %s\n", shownDSN(n, "tcp"), n.Socket)
		}
	}
	return nil
}

// shownDSN is the DSN of srv over network with its password masked.
func shownDSN(srv *servers.Server, network string) string {
	shown, err := redact.DSN(bench.DB(srv.Kind.DB()), srv.DSN(network))
	if err != nil {
		return redact.Mask
	}
	return shown
}
