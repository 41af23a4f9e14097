//go:build unix

package declared

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts the command in a process group of its own and
// makes cancelling it kill the whole group, so a program that started
// children (a script, a pipeline of its own) leaves nothing running.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
