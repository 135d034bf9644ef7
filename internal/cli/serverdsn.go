package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/internal/servers"
)

// serverDSN prints the DSN, password included, of the running server of
// kind what that sqlbench server start started, over network.
func serverDSN(what, network, stateDir string, env Env) error {
	kind, err := servers.ParseKind(what)
	if err != nil {
		return usagef("server dsn: %v", err)
	}
	if network != "tcp" && network != "unix" {
		return usagef("server dsn: --net: want tcp or unix, got %q", network)
	}
	all, err := servers.LoadStates(stateDir)
	if err != nil {
		return err
	}
	for _, s := range all {
		if s.Kind == kind && s.Alive() {
			fmt.Fprintln(env.Stdout, s.DSN(network))
			return nil
		}
	}
	return fmt.Errorf("%w: no %s server started by sqlbench server start is running", errNoServer, kind)
}

// exactlyOneKind wants one argument, the server's kind.
func exactlyOneKind(c *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("%s: name one server kind (%s)", c.CommandPath(), strings.Join(serverKinds(), ", "))
	}
	return nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
