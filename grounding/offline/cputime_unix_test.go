//go:build unix

package offline_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time so far: on a machine
// whose cores other work shares, a benchmark's CPU time per operation is
// steadier than its wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
