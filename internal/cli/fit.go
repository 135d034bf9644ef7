package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// fitHelp makes the help of root and its commands fit in width columns:
// the flags' descriptions wrap under themselves (pflag's
// FlagUsagesWrapped).
func fitHelp(root *cobra.Command, width int) {
	t := root.UsageTemplate()
	t = strings.ReplaceAll(t, ".FlagUsages", fmt.Sprintf(".FlagUsagesWrapped %d", width))
	root.SetUsageTemplate(t)
}
