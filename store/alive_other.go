//go:build !unix

package store

// processAlive cannot tell here, so every process counts as alive and no
// running turn is marked interrupted.
func processAlive(pid int) bool { return true }

// dirWritable cannot tell here without creating a file, so a directory
// counts as not writable and histories are read in SQLite's read-only mode.
func dirWritable(string) bool { return false }
