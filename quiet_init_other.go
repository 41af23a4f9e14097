//go:build !cgo || !(linux || darwin || freebsd)

package main

// restoreTerm has nothing to restore where gear does not hide TERM during
// package initialisation (see quiet_init.go): on Windows termenv does not
// query the terminal, and without cgo gear has no SQLite history anyway.
func restoreTerm() {}
