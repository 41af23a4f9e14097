package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// checkRefusal opens path, expects an error of kind with the words in
// want on one line, and checks the file was not changed.
func checkRefusal(t *testing.T, path string, kind error, want ...string) {
	t.Helper()
	before := fileHash(t, path)
	s, err := Open(context.Background(), path, Options{})
	if err == nil {
		s.Close()
		t.Fatal("Open succeeded")
	}
	if !errors.Is(err, kind) {
		t.Errorf("error %q is not %v", err, kind)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not say %q", msg, w)
		}
	}
	if after := fileHash(t, path); after != before {
		t.Error("the refused file was changed")
	}
	for _, side := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(path + side); err == nil {
			t.Errorf("%s left next to the refused file", side)
		}
	}
}

func createdDB(t *testing.T, turns int) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := s.CreateConversation(ctx, NewConversation{})
	for range turns {
		ref, err := s.BeginTurn(ctx, conv, "what's the weather in Adelaide "+strings.Repeat("and more ", 40), ModeChat)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.FinishTurn(ctx, benchRecord(ref.TurnID)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNewerDatabaseIsRefused(t *testing.T) {
	path := createdDB(t, 1)
	raw := openPool(path, writerPool, readWrite, 0, 0)
	if _, err := raw.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	checkRefusal(t, path, ErrNewer, path, "newer gear", "schema 99", "knows up to "+strconv.Itoa(SchemaVersion), "upgrade gear", "--db", "not changed")
}

func TestCorruptFileIsRefusedAndKept(t *testing.T) {
	t.Run("not a database at all", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "gear.db")
		junk := bytes.Repeat([]byte("this is not an SQLite file. "), 400)
		if err := os.WriteFile(path, junk, 0o600); err != nil {
			t.Fatal(err)
		}
		checkRefusal(t, path, ErrCorrupt, path, "is corrupt", "left it untouched", "--db")
	})
	t.Run("damaged page", func(t *testing.T) {
		path := createdDB(t, 60)
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := f.Stat()
		pages := info.Size() / 4096
		// Scribble over a page in the middle of the file: a b-tree page
		// of the history, not the header.
		if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, 4096), (pages/2)*4096); err != nil {
			t.Fatal(err)
		}
		f.Close()
		checkRefusal(t, path, ErrCorrupt, "is corrupt", "--db")
	})
	t.Run("truncated", func(t *testing.T) {
		path := createdDB(t, 60)
		if err := os.Truncate(path, 3*4096); err != nil {
			t.Fatal(err)
		}
		checkRefusal(t, path, ErrCorrupt, "is corrupt")
	})
}

func TestOtherSQLiteDatabaseIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.db")
	raw := openPool(path, writerPool, readWrite, 0, 0)
	if _, err := raw.Exec("CREATE TABLE notes (body TEXT)"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	checkRefusal(t, path, ErrNotGear, "not a gear history", "--db")
}

// TestMissingDirectoryIsCreated also checks the new directory and file
// are private to their owner.
func TestMissingDirectoryIsCreated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "gear", "deeper", "gear.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	info, err := os.Stat(filepath.Dir(path))
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("directory: %v, %v", info, err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("database file: %v, %v", info, err)
	}
}

func TestUnusablePaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       string
	}{
		{"directory under a file", filepath.Join(file, "gear", "gear.db"), "cannot create history directory"},
		{"path is a directory", dir, "is a directory, not a file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(context.Background(), tt.path, Options{})
			if !errors.Is(err, ErrDirectory) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "--db") {
				t.Fatalf("error = %v", err)
			}
		})
	}
}

// TestReadOnlyLocations opens databases the test process cannot write: as
// root (who can write anything) the open runs in a child process as
// nobody.
func TestReadOnlyLocations(t *testing.T) {
	base, err := os.MkdirTemp("", "gear-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.Walk(base, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(base)
	})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Chmod(base, 0o755))
	// A read-only directory where the database would be created.
	must(os.Mkdir(filepath.Join(base, "ro-empty"), 0o555))
	// A read-only directory holding a database: WAL needs files beside it.
	must(os.Mkdir(filepath.Join(base, "ro-dir"), 0o755))
	roDirDB := filepath.Join(base, "ro-dir", "gear.db")
	s, err := Open(context.Background(), roDirDB, Options{})
	must(err)
	s.Close()
	must(os.Chmod(roDirDB, 0o666))
	must(os.Chmod(filepath.Join(base, "ro-dir"), 0o555))
	// A read-only database file in a writable directory.
	must(os.Mkdir(filepath.Join(base, "ro-file"), 0o777))
	must(os.Chmod(filepath.Join(base, "ro-file"), 0o777))
	roFileDB := filepath.Join(base, "ro-file", "gear.db")
	s, err = Open(context.Background(), roFileDB, Options{})
	must(err)
	s.Close()
	must(os.Chmod(roFileDB, 0o444))

	binary := filepath.Join(base, "store.test")
	must(copyFile(os.Args[0], binary, 0o755))
	tests := []struct {
		name, path, kind, want string
	}{
		{"new database in a read-only directory", filepath.Join(base, "ro-empty", "gear.db"), "readonly", "directory " + filepath.Join(base, "ro-empty") + " is not writable"},
		{"database in a read-only directory", roDirDB, "readonly", "is not writable"},
		{"read-only database file", roFileDB, "readonly", "the file is not writable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := child(t, "open", tt.path)
			cmd.Path, cmd.Args[0] = binary, binary
			if os.Geteuid() == 0 {
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			kind, msg, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
			if kind != tt.kind || !strings.Contains(msg, tt.want) || !strings.Contains(msg, "--db") || strings.Contains(msg, "\n") {
				t.Fatalf("child said %q: %q; want %s error saying %q", kind, msg, tt.kind, tt.want)
			}
		})
	}
}

func copyFile(from, to string, perm os.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func TestDiskFull(t *testing.T) {
	ctx := context.Background()
	path := createdDB(t, 1)
	raw := openPool(path, readerPool, readWrite, 0, 0)
	var pages int
	if err := raw.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	s, err := Open(ctx, path, Options{maxPages: pages + 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conv, err := s.CreateConversation(ctx, NewConversation{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.BeginTurn(ctx, conv, strings.Repeat("a very long question about Adelaide ", 2000), ModeChat)
	if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), "the disk is full") ||
		!strings.Contains(err.Error(), "not saved") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error = %v", err)
	}
	// Nothing half-written: the database is sound and still usable.
	if _, err := s.BeginTurn(ctx, conv, "short question", ModeChat); err != nil {
		t.Fatalf("a small turn after the full disk: %v", err)
	}
	var check string
	if err := s.r.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	msgs, _ := s.Messages(ctx, conv)
	if len(msgs) != 1 || msgs[0].Text != "short question" {
		t.Errorf("messages = %d", len(msgs))
	}
}

func TestBusyDatabaseWaitsInsteadOfFailing(t *testing.T) {
	ctx := context.Background()
	path := createdDB(t, 0)
	s, err := Open(ctx, path, Options{BusyTimeout: 20 * time.Millisecond, RetryFor: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conv, _ := s.CreateConversation(ctx, NewConversation{})
	// Another connection holds the write lock for longer than the busy
	// timeout: the write is retried, not failed.
	other := openPool(path, writerPool, readWrite, 0, 0)
	defer other.Close()
	tx, err := other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		defer close(released)
		tx.Exec("INSERT INTO settings (key, value, updated_at) VALUES ('k', 'v', 0)")
		time.Sleep(150 * time.Millisecond)
		tx.Commit()
	}()
	if _, err := s.BeginTurn(ctx, conv, "while another process writes", ModeChat); err != nil {
		t.Fatalf("BeginTurn under a lock: %v", err)
	}
	<-released

	// A lock held beyond RetryFor is reported clearly, not as "database
	// is locked".
	short, err := Open(ctx, path, Options{BusyTimeout: 10 * time.Millisecond, RetryFor: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer short.Close()
	tx, err = other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	_, err = short.BeginTurn(ctx, conv, "blocked", ModeChat)
	if !errors.Is(err, ErrBusy) || strings.Contains(err.Error(), "database is locked") || !strings.Contains(err.Error(), "try again") {
		t.Fatalf("error = %v", err)
	}
}
