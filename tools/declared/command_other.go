//go:build !unix

package declared

import "os/exec"

// ownProcessGroup: without Unix process groups, cancelling kills the
// program itself (exec's default).
func ownProcessGroup(*exec.Cmd) {}
