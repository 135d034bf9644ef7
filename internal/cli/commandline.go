package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sqlbench/sqlbench/internal/redact"
)

// commandLine is the command line c ran, for the record, built from what
// was parsed: "sqlbench", the subcommand, each flag given as --name=value
// (a --dsn value's DSN as its driver reads it, password masked, see
// redact.DSN) and the arguments. The raw command line is never recorded,
// so no password typed into it can be.
func commandLine(c *cobra.Command, args []string) []string {
	var out []string
	for p := c; p.HasParent(); p = p.Parent() {
		out = append([]string{p.Name()}, out...)
	}
	out = append([]string{"sqlbench"}, out...)
	c.Flags().Visit(func(f *pflag.Flag) {
		vals := []string{f.Value.String()}
		if s, ok := f.Value.(pflag.SliceValue); ok {
			vals = s.GetSlice()
		}
		for _, v := range vals {
			if f.Name == "dsn" {
				v = recordedDSN(v)
			}
			out = append(out, "--"+f.Name+"="+shellQuote(v))
		}
	})
	return append(out, args...)
}

// recordedDSN is a --dsn value DATABASE=DSN with the DSN redacted, or with
// Mask for a DSN its driver rejects.
func recordedDSN(v string) string {
	m, err := parseDSNFlags([]string{v})
	name, _, _ := strings.Cut(v, "=")
	for db, dsn := range m {
		if shown, err := redact.DSN(db, dsn); err == nil {
			return name + "=" + shown
		}
	}
	if err == nil {
		return name + "=" + redact.Mask
	}
	return redact.Mask
}
