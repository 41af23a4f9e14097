// Package buildinfo names the build the running code came from.
package buildinfo

import "runtime/debug"

// Stamp is the module's version and VCS revision, and whether the tree
// was modified, when the binary records them (a binary built in a git
// checkout does; a test binary does not), else "". Records derived by
// code (a cached library, a cached index) are keyed by it, so that a new
// build never reads an older build's records, even where a fingerprint of
// the code would not see the change.
func Stamp() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	stamp := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			stamp += " " + s.Value
		}
	}
	return stamp
}
