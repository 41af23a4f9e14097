package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledWriterLosesNoCommittedMessage kills a child process with
// SIGKILL while it records turns, three times over one file, then checks
// the file is sound and holds every user message the child reported as
// committed.
func TestKilledWriterLosesNoCommittedMessage(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "gear.db")
	committed := map[int64]string{}
	for round, after := range []int{5, 40, 120} {
		cmd := child(t, "crash", path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stdout)
		read := 0
		record := func() {
			id, query, ok := strings.Cut(lines.Text(), " ")
			n, err := strconv.ParseInt(id, 10, 64)
			if !ok || err != nil {
				t.Fatalf("child printed %q", lines.Text())
			}
			committed[n] = query
			read++
		}
		for read < after && lines.Scan() {
			record()
		}
		// The child is now inside FinishTurn or the next BeginTurn.
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for lines.Scan() { // reported before it died
			record()
		}
		err = cmd.Wait()
		if read < after {
			t.Fatalf("round %d: child stopped after %d turns: %v\n%s", round, read, err, stderr.String())
		}
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child was not killed: %v\n%s", round, err, stderr.String())
		}
	}

	raw := openPool(path, readerPool, readWrite, 0, 0)
	defer raw.Close()
	var check string
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check after kills: %q, %v", check, err)
	}
	for id, query := range committed {
		var text string
		if err := raw.QueryRow("SELECT text FROM messages WHERE id = ? AND role = 'user'", id).Scan(&text); err != nil || text != query {
			t.Fatalf("committed message %d (%q) lost: %q, %v", id, query, text, err)
		}
	}
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("reopening after kills: %v", err)
	}
	defer s.Close()
	q, _ := ParseQuery("crash adelaide", nil)
	if hits, err := s.Search(context.Background(), q, 5); err != nil || len(hits) == 0 {
		t.Errorf("search after kills: %v, %v", hits, err)
	}
	t.Logf("%d committed messages across 3 kills, all present", len(committed))
}

// TestTwoProcessesShareOneFile runs two processes that create the same new
// file, then write, rate and search at the same time; neither may see an
// error.
func TestTwoProcessesShareOneFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "gear.db")
	start := filepath.Join(dir, "start")
	const turns = 60
	type run struct {
		name   string
		stderr bytes.Buffer
		done   chan error
	}
	var runs []*run
	for _, name := range []string{"alpha", "beta"} {
		r := &run{name: name, done: make(chan error, 1)}
		cmd := child(t, "worker", path, childName+"="+name, childTurns+"="+strconv.Itoa(turns), childStart+"="+start)
		cmd.Stderr = &r.stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { r.done <- cmd.Wait() }()
		runs = append(runs, r)
	}
	time.Sleep(50 * time.Millisecond) // both children are waiting
	if err := os.WriteFile(start, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		select {
		case err := <-r.done:
			if err != nil || r.stderr.Len() > 0 {
				t.Errorf("%s: %v\n%s", r.name, err, r.stderr.String())
			}
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s did not finish", r.name)
		}
	}
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, r := range runs {
		q, _ := ParseQuery(fmt.Sprintf("%q", r.name+" turn"), nil)
		hits, err := s.Search(context.Background(), q, 2*turns)
		if err != nil || len(hits) != turns {
			t.Errorf("%s: %d turns found, want %d (%v)", r.name, len(hits), turns, err)
		}
	}
}
