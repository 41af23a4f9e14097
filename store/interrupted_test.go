package store

import (
	"bufio"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A turn whose process was killed is marked interrupted when the history
// is next opened; a turn a live process is running is left alone.
func TestKilledTurnIsMarkedInterrupted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	cmd := child(t, "hold", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("child: %v", err)
	}
	killed, _ := strconv.ParseInt(strings.TrimSpace(line), 10, 64)

	// While the child lives, its turn is running.
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Turn(ctx, killed); err != nil || got.Status != StatusRunning {
		t.Fatalf("while its process lives: %v, %v", got.Status, err)
	}
	s.Close()
	cmd.Process.Kill()
	cmd.Wait()

	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Turn(ctx, killed)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != StatusInterrupted || !strings.HasPrefix(got.Error, "interrupted") || got.Finished.IsZero() {
		t.Errorf("killed turn: status %s, error %q, finished %v", got.Status, got.Error, got.Finished)
	}

	// This process's own running turn stays running at another open.
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.BeginTurn(ctx, conv, "still thinking", ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, _ := again.Turn(ctx, ref.TurnID); got.Status != StatusRunning {
		t.Errorf("a live process's turn became %s", got.Status)
	}
}

// A running turn recorded before turns named their process is marked at
// the migration's first open.
func TestOldRunningTurnIsMarkedInterrupted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gear.db")
	old, err := Open(ctx, path, Options{migrateTo: 5})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := old.CreateConversation(ctx, NewConversation{Mode: ModeChat})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.w.ExecContext(ctx, `INSERT INTO turns (conversation_id, query, mode, status, created_at)
		VALUES (?, 'left running', 'chat', 'running', 1)`, conv); err != nil {
		t.Fatal(err)
	}
	old.Close()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	turns, err := s.Turns(ctx, conv)
	if err != nil || len(turns) != 1 || turns[0].Status != StatusInterrupted {
		t.Fatalf("turns = %+v, %v", turns, err)
	}
}
