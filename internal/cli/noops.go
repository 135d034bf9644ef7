package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// noopRule is a rule of the flags a command line may not combine: when
// noop holds, the flags of names given on the command line would do
// nothing, for the reason why.
type noopRule struct {
	noop  bool
	names []string
	why   string
}

// refuseNoops returns bad input naming the given flags of the first rule
// whose flags would do nothing, or nil: a flag that changes nothing is a
// mistake the user should hear of, not a silent default.
func refuseNoops(c *cobra.Command, rules ...noopRule) error {
	for _, r := range rules {
		var given []string
		for _, n := range r.names {
			if set(c, n) {
				given = append(given, "--"+n)
			}
		}
		if r.noop && len(given) > 0 {
			command := strings.TrimPrefix(c.CommandPath(), "sqlbench ")
			return usagef("%s: %s: %s", command, strings.Join(given, ", "), r.why)
		}
	}
	return nil
}

// formatsOf are the formats of a --format value.
func formatsOf(format string) []string {
	var out []string
	for _, f := range strings.Split(format, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

// reportNoops refuses report's flags that the formats asked for would not
// use: --wide without text, -o with text alone.
func reportNoops(c *cobra.Command, format string) error {
	formats := formatsOf(format)
	return refuseNoops(c,
		noopRule{!slices.Contains(formats, "text"), []string{"wide"},
			"only for the text format, which --format does not name"},
		noopRule{slices.Equal(formats, []string{"text"}), []string{"output"},
			"only for files, and the text format goes to stdout"},
	)
}

// compareNoops refuses compare's flags that do nothing: --allow-different
// without --fail-over, --md beside --format.
func compareNoops(c *cobra.Command) error {
	return refuseNoops(c,
		noopRule{!set(c, "fail-over"), []string{"allow-different"},
			"only for the --fail-over gate, which is not given"},
		noopRule{set(c, "md"), []string{"format"}, "--md sets the format too: give one of them"},
	)
}

// listNoops refuses list's flags that --markdown, the catalogue alone,
// would not use.
func listNoops(c *cobra.Command) error {
	return refuseNoops(c, noopRule{set(c, "markdown"), []string{"estimate", "json"},
		"not with --markdown, which prints the catalogue alone"})
}

// reproduceNoops refuses reproduce's flags that do nothing: any flag
// without a study (reproduce then lists the studies), --force without -o,
// --allow-remote without a DSN.
func reproduceNoops(c *cobra.Command, study bool) error {
	var all []string
	c.Flags().VisitAll(func(f *pflag.Flag) { all = append(all, f.Name) })
	return refuseNoops(c,
		noopRule{!study, all, "only with a study: without one, reproduce lists the studies"},
		noopRule{!set(c, "output"), []string{"force"}, "only for an -o results file, and none is given"},
		noopRule{!set(c, "dsn"), []string{"allow-remote"}, "only for a --dsn, and none is given"},
	)
}
