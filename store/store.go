// Package store is gear's history: one SQLite file holding conversations,
// every turn's routing, grounding scores, tool calls, answers, ratings,
// survey responses and an embedding cache, with full-text search.
//
// The file is shared safely: WAL journaling, a busy timeout and retries
// let two gear processes use it at once; BeginTurn commits what the user
// typed (synced to disk) before any model or tool is called. Schema
// changes are numbered migrations applied on Open; a file from a newer
// gear, a corrupt file or an unwritable location is refused with a
// one-line error that says what to do, and never modified.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Options configures Open. The zero value is what gear uses.
type Options struct {
	// Now is the clock for recorded times; nil means time.Now.
	Now func() time.Time
	// BusyTimeout is how long one statement waits for a lock another
	// process holds; 0 means 5 s.
	BusyTimeout time.Duration
	// RetryFor is how long an operation is retried while the database
	// stays locked; 0 means 30 s.
	RetryFor time.Duration
	// ReadOnly opens an existing history to read it: no directory, file or
	// journal is created and nothing is written (a history from an older
	// gear is still brought up to date first). A missing or empty file is
	// ErrNoHistory.
	ReadOnly bool

	// maxPages caps the file (PRAGMA max_page_count): tests use it to fill
	// the "disk".
	maxPages int
	// migrateTo stops migrations at a version: tests use it to build old
	// databases.
	migrateTo int
	// checkBudget overrides the integrity check's time budget: tests use
	// it to cut the check short.
	checkBudget time.Duration
}

// checkBudget bounds the integrity check Open runs: a small history is
// checked whole; on a large one the check stops early and corruption is
// caught when a damaged page is read.
const checkBudget = 30 * time.Millisecond

// Store is an open history database. It is safe for concurrent use.
type Store struct {
	path     string
	w        *sql.DB // one connection; every write, in immediate transactions
	r        *sql.DB // readers
	now      func() time.Time
	retryFor time.Duration
	budget   time.Duration // of the integrity check on open
}

// Open opens the history database at path, creating it and its directory
// if missing, checking it and applying pending migrations.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("history database: no path given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("history database %s: %w", path, err)
	}
	if err := checkFile(abs, opts.ReadOnly); err != nil {
		return nil, err
	}
	if !opts.ReadOnly {
		dir := filepath.Dir(abs)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, dirError(abs, dir, err)
		}
		// History is private: a new file is readable by its owner only,
		// and SQLite gives the WAL and shared-memory files the same mode.
		// (An empty file is an empty database.)
		if f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			f.Close()
		}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.RetryFor <= 0 {
		opts.RetryFor = 30 * time.Second
	}
	acc := readWrite
	if opts.ReadOnly {
		acc = readAccess(abs)
	}
	s := &Store{
		path:     abs,
		w:        openPool(abs, writerPool, acc, opts.BusyTimeout, opts.maxPages),
		r:        openPool(abs, readerPool, acc, opts.BusyTimeout, opts.maxPages),
		now:      opts.Now,
		retryFor: opts.RetryFor,
		budget:   checkBudget,
	}
	if opts.checkBudget > 0 {
		s.budget = opts.checkBudget
	}
	target := SchemaVersion
	if opts.migrateTo > 0 {
		target = opts.migrateTo
	}
	err = s.prepare(ctx, target, opts.ReadOnly)
	if errors.Is(err, errNeedsMigration) {
		// An older gear's history is brought up to date once, as any
		// command that opens it for writing would.
		s.Close()
		opts.ReadOnly = false
		return Open(ctx, path, opts)
	}
	if err != nil {
		s.Close()
		return nil, classify(abs, "open", err)
	}
	return s, nil
}

// readAccess is how a history is opened to read it. Reading a WAL
// database needs its -wal and -shm files; only a connection that could
// write removes them when it closes, so a history in a place gear may
// write is opened read-write but query-only (readShared), and the
// sidecars go when the last connection closes, as after any gear command.
// Elsewhere SQLite's own read-only mode is used (readOnly), which creates
// nothing it could not (the sidecars stay only where another process left
// them or could create them).
func readAccess(path string) access {
	if checkWritable(path) != nil || !dirWritable(filepath.Dir(path)) {
		return readOnly
	}
	return readShared
}

// errNeedsMigration is a history opened read-only that an older gear wrote.
var errNeedsMigration = errors.New("history needs migrating")

// checkFile refuses what cannot be a history file — a directory, a device
// such as /dev/null, a pipe — and, for reading, a file that is not there.
func checkFile(path string, readOnly bool) error {
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return &DBError{path, ErrDirectory, fmt.Sprintf(
			"history database %s is a directory, not a file; %s", path, useDB)}
	case err == nil && !info.Mode().IsRegular():
		return &DBError{path, ErrNotFile, fmt.Sprintf(
			"history database %s is not a regular file (it is a %s); %s", path, fileKind(info.Mode()), useDB)}
	case readOnly && errors.Is(err, fs.ErrNotExist):
		return noHistoryError(path)
	case readOnly && err != nil: // a file on the way, a directory it may not read
		return dirError(path, filepath.Dir(path), err)
	}
	return nil
}

func noHistoryError(path string) error {
	return &DBError{path, ErrNoHistory, fmt.Sprintf(
		"no history yet: %s does not hold any (gear creates it when you first ask something)", path)}
}

// fileKind names what a file that is not regular is.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// prepare checks the file is gear's, sound and not from a newer gear, then
// brings it to the target schema. Nothing is written before the checks.
func (s *Store) prepare(ctx context.Context, target int, readOnly bool) error {
	var appID, version, objects int
	err := s.retry(ctx, func(ctx context.Context) error {
		return s.w.QueryRowContext(ctx, `SELECT
			(SELECT application_id FROM pragma_application_id),
			(SELECT user_version FROM pragma_user_version),
			(SELECT count(*) FROM sqlite_schema)`).Scan(&appID, &version, &objects)
	})
	if err != nil {
		return err
	}
	if version > SchemaVersion {
		return newerError(s.path, version, SchemaVersion)
	}
	fresh := appID == 0 && version == 0 && objects == 0
	if appID != applicationID && !fresh {
		return notGearError(s.path)
	}
	if readOnly && fresh {
		return noHistoryError(s.path)
	}
	if err := s.quickCheck(ctx); err != nil {
		return err
	}
	if readOnly && version < target {
		return errNeedsMigration
	}
	if readOnly {
		return nil
	}
	var mode string
	err = s.retry(ctx, func(ctx context.Context) error {
		return s.w.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode)
	})
	if err != nil {
		return err
	}
	if mode != "wal" {
		return fmt.Errorf("history database %s: cannot use WAL journaling (journal mode is %s)", s.path, mode)
	}
	// SQLite quietly opens a file it may not write read-only, and in WAL
	// mode even takes the write lock; say so now rather than at the first
	// turn.
	if err := checkWritable(s.path); err != nil {
		return accessError(s.path, err)
	}
	if version < target {
		if err := s.migrate(ctx, target); err != nil {
			return err
		}
	}
	if target >= interruptedSchema {
		return s.markInterrupted(ctx)
	}
	return nil
}

// quickCheck runs PRAGMA quick_check within its budget (checkBudget).
// Running out of time is not a failure: the check is there to catch damage
// early. Whatever the check fails with once its budget is spent — the
// query, a row's scan (database/sql reports rows closed by the context as
// the context's error), the rows' end — counts as running out of time.
func (s *Store) quickCheck(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, s.budget)
	defer cancel()
	problems, err := runQuickCheck(cctx, s.w)
	switch {
	case err != nil && cctx.Err() != nil && ctx.Err() == nil:
		return nil
	case err != nil:
		return err
	case len(problems) > 0:
		// One row of quick_check can hold several lines ("*** in database
		// main ***\nTree 35 page 35: ..."): the error stays one line.
		return corruptError(s.path, "integrity check: "+strings.ReplaceAll(strings.TrimSpace(problems[0]), "\n", "; "))
	}
	return nil
}

// runQuickCheck returns the lines of PRAGMA quick_check that are not "ok".
func runQuickCheck(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check(5)")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	return problems, rows.Err()
}

// Path is the database file's absolute path.
func (s *Store) Path() string { return s.path }

// Close closes the database. The writer closes last, so it checkpoints
// the WAL into the file.
func (s *Store) Close() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

// retry runs op again while the database is locked by another process,
// for at most retryFor, so a lock never reaches the user as an error
// unless it lasts that long.
func (s *Store) retry(ctx context.Context, op func(context.Context) error) error {
	start := time.Now()
	wait := 5 * time.Millisecond
	for {
		err := op(ctx)
		if err == nil || !isBusy(err) {
			return err
		}
		if time.Since(start) > s.retryFor {
			return busyError(s.path, time.Since(start))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 250*time.Millisecond)
	}
}

// write runs fn in an immediate transaction, retried while locked. With
// durable, the commit is synced to disk (synchronous=FULL) so it survives
// a power cut; otherwise it survives a crash of the process.
func (s *Store) write(ctx context.Context, durable bool, fn func(*sql.Tx) error) error {
	return s.retry(ctx, func(ctx context.Context) error {
		conn, err := s.w.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if durable {
			if _, err := conn.ExecContext(ctx, "PRAGMA synchronous = FULL"); err != nil {
				return err
			}
			defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA synchronous = NORMAL")
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	})
}

// read runs fn, retried while locked.
func (s *Store) read(ctx context.Context, fn func(context.Context, *sql.DB) error) error {
	return s.retry(ctx, func(ctx context.Context) error { return fn(ctx, s.r) })
}
