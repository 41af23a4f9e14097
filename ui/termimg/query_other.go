//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package termimg

import (
	"context"
	"os"
	"time"
)

// TTYQuery is nil where gear cannot set a read timeout on the terminal:
// detection goes by the environment's hints alone.
func TTYQuery(*os.File) func(ctx context.Context, q string, timeout time.Duration) (string, error) {
	return nil
}
