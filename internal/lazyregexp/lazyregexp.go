// Package lazyregexp compiles a package-level regular expression on its
// first use instead of at package initialisation. Every command links
// every package, so a regexp compiled in a package-level var is paid for
// by gear version too (BENCHMARKS.md, "Start-up of every command").
package lazyregexp

import (
	"regexp"
	"sync"
)

// New returns a function that compiles pattern when first called and
// returns that same *regexp.Regexp ever after; it is safe for concurrent
// use. As with regexp.MustCompile, a pattern that does not compile
// panics, on first use: the package's tests that use it catch that.
func New(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
