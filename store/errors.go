package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mattn/go-sqlite3"
)

// The kinds of failure a caller may want to tell apart; test with
// errors.Is. Every error Open and the methods return is already a complete
// one-line message for the user.
var (
	ErrNotFound  = errors.New("not found")
	ErrNewer     = errors.New("database from a newer gear")
	ErrCorrupt   = errors.New("database corrupt")
	ErrNotGear   = errors.New("not a gear database")
	ErrReadOnly  = errors.New("database not writable")
	ErrDiskFull  = errors.New("disk full")
	ErrBusy      = errors.New("database busy")
	ErrDirectory = errors.New("database directory unusable")
	ErrNotFile   = errors.New("database path not a regular file")
	// ErrNoHistory is a history opened for reading that does not exist yet.
	ErrNoHistory = errors.New("no history yet")
)

// DBError is a database-level failure: the file, what kind of failure,
// and what the user can do.
type DBError struct {
	Path   string
	Kind   error
	Detail string
}

func (e *DBError) Error() string { return e.Detail }

// Is lets errors.Is match the kind.
func (e *DBError) Is(target error) bool { return target == e.Kind }

// NotFoundError is returned for an id that is not in the database.
type NotFoundError struct {
	What string
	ID   int64
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no %s with id %d in the history database", e.What, e.ID)
}

// Is lets errors.Is(err, ErrNotFound) match.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// elsewhere ends a message that offered a fix: "..., or use --db ...".
// useDB is the same advice on its own.
const (
	elsewhere = "or use --db PATH to keep history in another file"
	useDB     = "use --db PATH to keep history in another file"
)

func newerError(path string, found, known int) error {
	return &DBError{path, ErrNewer, fmt.Sprintf(
		"history database %s was written by a newer gear (schema %d; this gear knows up to %d): upgrade gear, %s; the file was not changed",
		path, found, known, elsewhere)}
}

func corruptError(path string, detail string) error {
	return &DBError{path, ErrCorrupt, fmt.Sprintf(
		"history database %s is corrupt (%s): gear left it untouched; move it aside to start a new history (sqlite3's .dump can save what is still readable) %s",
		path, detail, elsewhere)}
}

func notGearError(path string) error {
	return &DBError{path, ErrNotGear, fmt.Sprintf(
		"%s is an SQLite database but not a gear history: gear left it untouched; %s", path, useDB)}
}

func diskFullError(path string) error {
	return &DBError{path, ErrDiskFull, fmt.Sprintf(
		"history database %s: the disk is full, so this change was not saved; free some space %s", path, elsewhere)}
}

func busyError(path string, waited time.Duration) error {
	return &DBError{path, ErrBusy, fmt.Sprintf(
		"history database %s stayed locked by another program for %s; close other gear sessions or try again",
		path, waited.Round(100*time.Millisecond))}
}

// classify turns an SQLite failure into one of the errors above; op says
// what was being done, for the errors that are not about the file.
func classify(path, op string, err error) error {
	if err == nil {
		return nil
	}
	var dbe *DBError
	var nf *NotFoundError
	if errors.As(err, &dbe) || errors.As(err, &nf) {
		return err
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrCorrupt, sqlite3.ErrNotADB:
			return corruptError(path, se.Error())
		case sqlite3.ErrFull:
			return diskFullError(path)
		case sqlite3.ErrReadonly, sqlite3.ErrCantOpen, sqlite3.ErrPerm:
			return accessError(path, err)
		}
	}
	return fmt.Errorf("history database %s: %s: %w", path, op, err)
}

// accessError says why path cannot be written: the directory, the file or
// (when neither check fails) what SQLite reported.
func accessError(path string, cause error) error {
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return &DBError{path, ErrDirectory, fmt.Sprintf(
			"cannot open history database %s: directory %s is missing; %s", path, dir, useDB)}
	}
	if err := probeDir(dir); err != nil {
		return &DBError{path, ErrReadOnly, fmt.Sprintf(
			"cannot write history database %s: directory %s is not writable (%s); make it writable %s",
			path, dir, reason(err), elsewhere)}
	}
	if err := checkWritable(path); err != nil {
		return &DBError{path, ErrReadOnly, fmt.Sprintf(
			"cannot write history database %s: the file is not writable (%s); make it writable %s",
			path, reason(err), elsewhere)}
	}
	return &DBError{path, ErrReadOnly, fmt.Sprintf(
		"cannot write history database %s (%s); check the file and its directory, %s", path, reason(cause), elsewhere)}
}

// checkWritable checks that the file at path opens for writing; a missing
// file is no error (SQLite creates it).
func checkWritable(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	f.Close()
	return nil
}

// probeDir checks that a file can be created in dir.
func probeDir(dir string) error {
	f, err := os.CreateTemp(dir, ".gear-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// reason is the system's words for err without the path it repeats.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func dirError(path, dir string, err error) error {
	return &DBError{path, ErrDirectory, fmt.Sprintf(
		"cannot create history directory %s (%s); %s", dir, reason(err), useDB)}
}

func isBusy(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked
	}
	return false
}
