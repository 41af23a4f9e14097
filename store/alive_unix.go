//go:build unix

package store

import (
	"errors"
	"syscall"
)

// processAlive says whether a process with this id exists (one owned by
// another user counts).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// dirWritable reports whether files can be created in dir, without
// creating one.
func dirWritable(dir string) bool {
	const writeOK = 2 // W_OK of access(2)
	return syscall.Access(dir, writeOK) == nil
}
