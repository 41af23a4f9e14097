package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// Reading commands open the history read-only: a missing one is "no
// history yet" and nothing is created for it.
func TestReadOnlyOpenCreatesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "new", "dir", "x.db")
	_, err := Open(ctx, path, Options{ReadOnly: true})
	if !errors.Is(err, ErrNoHistory) || !strings.Contains(err.Error(), "no history yet") {
		t.Fatalf("err = %v, want ErrNoHistory", err)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("opening to read created %v", names)
	}

	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, empty, Options{ReadOnly: true}); !errors.Is(err, ErrNoHistory) {
		t.Errorf("an empty file: err = %v, want ErrNoHistory", err)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"empty.db"}) {
		t.Errorf("opening an empty file to read left %v", names)
	}
}

// An existing history opens read-only: it reads, refuses writes, and is
// left as it was — no file is left beside it, not even SQLite's WAL
// sidecars (-wal, -shm), which reading a WAL database creates.
func TestReadOnlyOpenReadsAndWritesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "gear.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat, Title: "kept"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := dirNames(t, dir)
	info, _ := os.Stat(path)

	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := ro.Conversation(ctx, conv)
	if err != nil || c.Title != "kept" {
		t.Fatalf("conversation = %+v, %v", c, err)
	}
	if _, err := ro.CreateConversation(ctx, NewConversation{Mode: ModeChat}); err == nil {
		t.Error("a read-only history took a write")
	}
	ro.Close()
	after, _ := os.Stat(path)
	names := dirNames(t, dir)
	if !slices.Equal(names, before) || !after.ModTime().Equal(info.ModTime()) || after.Size() != info.Size() {
		t.Errorf("files %v → %v, size %d → %d", before, names, info.Size(), after.Size())
	}
}

// A history from an older gear is brought up to date even when opened to
// read, as before.
func TestReadOnlyOpenMigratesAnOlderHistory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	s, err := Open(ctx, path, Options{migrateTo: 4})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Conversations(ctx, 10); err != nil {
		t.Fatal(err)
	}
}

// A device or a pipe is not a history file: refused with one line, and
// nothing is created beside it (/dev/null-journal).
func TestNonRegularFilesAreRefused(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	for _, ro := range []bool{true, false} {
		_, err := Open(context.Background(), "/dev/null", Options{ReadOnly: ro})
		if !errors.Is(err, ErrNotFile) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("read-only %v: err = %v, want ErrNotFile", ro, err)
		}
	}
	if _, err := os.Stat("/dev/null-journal"); err == nil {
		t.Error("/dev/null-journal exists")
	}
}

// A history in a directory gear may not write is read in SQLite's
// read-only mode: it reads, and nothing appears or goes.
func TestReadOnlyOpenInAReadOnlyDirectory(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "gear.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat, Title: "kept"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// A reader elsewhere left the sidecars, as SQLite needs them to read
	// WAL in a directory it cannot write.
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	before := dirNames(t, dir)
	ro2, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := ro2.Conversation(ctx, conv); err != nil || c.Title != "kept" {
		t.Fatalf("conversation = %+v, %v", c, err)
	}
	ro2.Close()
	ro.Close()
	if after := dirNames(t, dir); !slices.Equal(after, before) {
		t.Errorf("files %v → %v", before, after)
	}
}
