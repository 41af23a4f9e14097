//go:build linux || darwin || freebsd || netbsd || openbsd

package termimg

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// TTYQuery asks the terminal on tty (stdin's device, read and written)
// in raw mode with a read timeout set in the terminal itself (VMIN 0,
// VTIME), so no goroutine is left blocked on stdin to steal Bubble Tea's
// keys; the terminal's mode is restored before it returns.
func TTYQuery(tty *os.File) func(ctx context.Context, q string, timeout time.Duration) (string, error) {
	return func(ctx context.Context, q string, timeout time.Duration) (string, error) {
		fd := int(tty.Fd())
		old, err := unix.IoctlGetTermios(fd, ioctlGet)
		if err != nil {
			return "", err
		}
		raw := *old
		raw.Lflag &^= unix.ECHO | unix.ICANON | unix.ISIG | unix.IEXTEN
		raw.Iflag &^= unix.IXON | unix.ICRNL
		raw.Cc[unix.VMIN] = 0
		raw.Cc[unix.VTIME] = uint8(max(1, timeout/(100*time.Millisecond)))
		if err := unix.IoctlSetTermios(fd, ioctlSet, &raw); err != nil {
			return "", err
		}
		defer unix.IoctlSetTermios(fd, ioctlSet, old)
		if _, err := tty.WriteString(q); err != nil {
			return "", err
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		answer := readUntil(tty, 4096)
		if answer == "" {
			return "", errors.New("termimg: the terminal did not answer")
		}
		return answer, nil
	}
}
