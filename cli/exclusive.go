package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// exclusiveAnnotation keys, in a command's Annotations, its groups of
// flags that cannot be used together: "a,b,c=hint", one group a line.
const exclusiveAnnotation = "gear/exclusive-flags"

// markExclusive declares flags of cmd that cannot be used together. Cobra
// knows them (completion stops offering the others once one is set, and
// it refuses them too); gear checks them first, in checkExclusive, so the
// message is gear's and the exit code 2. hint says what to do instead.
func markExclusive(cmd *cobra.Command, hint string, names ...string) {
	cmd.MarkFlagsMutuallyExclusive(names...)
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	group := strings.Join(names, ",") + "=" + hint
	if prev := cmd.Annotations[exclusiveAnnotation]; prev != "" {
		group = prev + "\n" + group
	}
	cmd.Annotations[exclusiveAnnotation] = group
}

// checkExclusive refuses a command line that sets two or more flags of one
// of cmd's exclusive groups: "--chat and --direct cannot be used together:
// choose one mode".
func checkExclusive(cmd *cobra.Command) error {
	for _, line := range strings.Split(cmd.Annotations[exclusiveAnnotation], "\n") {
		names, hint, _ := strings.Cut(line, "=")
		if names == "" {
			continue
		}
		var set []string
		for _, name := range strings.Split(names, ",") {
			if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
				set = append(set, "--"+name)
			}
		}
		if n := len(set); n > 1 {
			return usageErrorf("%s and %s cannot be used together: %s", strings.Join(set[:n-1], ", "), set[n-1], hint)
		}
	}
	return nil
}
