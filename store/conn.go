package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
)

// connector opens SQLite connections with gear's settings without
// registering a driver name globally: every pooled connection gets the
// DSN's pragmas and the hook's functions.
type connector struct {
	driver *sqlite3.SQLiteDriver
	dsn    string
}

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.driver.Open(c.dsn) }
func (c connector) Driver() driver.Driver                        { return c.driver }

// poolKind is what a pool's connections are for.
type poolKind int

const (
	writerPool poolKind = iota // BEGIN IMMEDIATE, so a write never fails halfway on a lock
	readerPool                 // deferred, query-only
)

// access is how a pool opens the file.
type access int

const (
	readWrite access = iota // gear's own use: creates the file if missing
	// readShared reads a history gear may also write: opened read-write
	// so that SQLite, as the last connection to close, removes the WAL
	// sidecars (-wal, -shm) it had to create to read, but every
	// connection is query-only and the file itself is never created.
	readShared
	// readOnly reads a history gear may not write (the file or its
	// directory is read-only): nothing can be created or removed there.
	readOnly
)

func openPool(path string, kind poolKind, acc access, busy time.Duration, maxPages int) *sql.DB {
	params := []string{
		fmt.Sprintf("_busy_timeout=%d", busy.Milliseconds()),
		"_foreign_keys=1",
		"_synchronous=NORMAL",
		// Deleted history is overwritten, not left in free pages.
		"_secure_delete=1",
		"_stmt_cache_size=32",
	}
	switch acc {
	case readShared:
		// The file must exist (no "c" in the mode); nothing is written.
		params = append(params, "mode=rw", "_query_only=1")
	case readOnly:
		// Nothing is created: no file, no rollback journal (/dev/null's
		// "-journal"), no write.
		params = append(params, "mode=ro")
	}
	if kind == writerPool {
		params = append(params, "_txlock=immediate")
	} else {
		params = append(params, "_txlock=deferred")
		if acc != readShared {
			params = append(params, "_query_only=1")
		}
	}
	hook := func(conn *sqlite3.SQLiteConn) error {
		if err := conn.RegisterFunc(bm25Name, bm25, true); err != nil {
			return fmt.Errorf("register %s: %w", bm25Name, err)
		}
		// Memory-mapped reads and in-memory sorting keep searches over a
		// large history off the read() path. The writer maps nothing: its
		// integrity check on open reads the whole file, which mapped would
		// count in full in the process's memory.
		pragmas := []string{"PRAGMA temp_store = MEMORY"}
		if kind == readerPool {
			pragmas = append(pragmas, "PRAGMA mmap_size = 268435456")
		}
		for _, pragma := range pragmas {
			if _, err := conn.Exec(pragma, nil); err != nil {
				return err
			}
		}
		if maxPages > 0 {
			if _, err := conn.Exec(fmt.Sprintf("PRAGMA max_page_count = %d", maxPages), nil); err != nil {
				return err
			}
		}
		return nil
	}
	db := sql.OpenDB(connector{
		driver: &sqlite3.SQLiteDriver{ConnectHook: hook},
		dsn:    "file:" + escapeURIPath(path) + "?" + strings.Join(params, "&"),
	})
	// One writer per process: writes queue in Go instead of contending
	// for SQLite's lock.
	conns := 1
	if kind == readerPool {
		conns = 4
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	return db
}

// escapeURIPath escapes the characters that would end the path part of an
// SQLite URI filename.
func escapeURIPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}
