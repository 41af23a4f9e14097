//go:build cgo && (linux || darwin || freebsd)

package main

/*
#include <string.h>

extern char **environ;

// gear_term is TERM's entry in the environment the process started with,
// while Go's package initialisation sees TERM=dumb instead.
static char *gear_term;

// Bubble Tea v1 queries the terminal from a package init (tea_init.go:
// lipgloss.HasDarkBackground, an OSC 11 and a cursor-position request
// answered within termenv's 5 s), in every process that links it — gear
// version included. termenv skips the query for TERM=dumb, so this
// constructor, which runs before the Go runtime reads the environment,
// shows Go TERM=dumb until main puts the real value back (restoreTerm).
// Only the chat window then asks the terminal anything, with a short
// timeout of its own (ui.Run).
//
// It walks environ, which libc sets before constructors run and which is,
// at that point, the very array the Go runtime reads its environment
// from (the block after argv).
__attribute__((constructor)) static void gear_hide_term(void) {
	for (char **e = environ; e != NULL && *e != NULL; e++) {
		if (strncmp(*e, "TERM=", 5) == 0) {
			gear_term = *e;
			*e = (char *)"TERM=dumb";
			return;
		}
	}
}

static const char *gear_hidden_term(void) { return gear_term; }
*/
import "C"

import "os"

// restoreTerm gives TERM back its value from before package
// initialisation (see gear_hide_term), for gear and the processes it
// starts.
func restoreTerm() {
	p := C.gear_hidden_term()
	if p == nil {
		return
	}
	_ = os.Setenv("TERM", C.GoString(p)[len("TERM="):])
}
