package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
)

func (a *app) versionCommand() *cobra.Command {
	var verbose bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print gear's version and data credits",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "gear %s (%s, %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			fmt.Fprintln(out, "Place data: GeoNames (www.geonames.org), CC BY 4.0. Weather: Open-Meteo.com, CC BY 4.0. Encyclopedia: Wikipedia, CC BY-SA 4.0.")
			if verbose {
				fmt.Fprintln(out, "Model roles:")
				writeEngines(out, a.cfg)
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "also show which engine each model role uses")
	return cmd
}
