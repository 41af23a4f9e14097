//go:build darwin || freebsd || netbsd || openbsd

package termimg

import "golang.org/x/sys/unix"

const (
	ioctlGet = unix.TIOCGETA
	ioctlSet = unix.TIOCSETA
)
