package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// The test binary doubles as the child process of the crash, concurrency
// and permission tests: with childMode set it runs that child and exits.
const (
	childMode  = "GEAR_STORE_TEST_CHILD"
	childDB    = "GEAR_STORE_TEST_DB"
	childName  = "GEAR_STORE_TEST_NAME"
	childTurns = "GEAR_STORE_TEST_TURNS"
	childStart = "GEAR_STORE_TEST_START"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(childMode); mode != "" {
		os.Exit(runChild(mode))
	}
	os.Exit(m.Run())
}

func runChild(mode string) int {
	ctx := context.Background()
	path := os.Getenv(childDB)
	switch mode {
	case "crash":
		return crashChild(ctx, path)
	case "hold":
		// Begins a turn, says so, and waits to be killed.
		s, err := Open(ctx, path, Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat})
		if err == nil {
			var ref TurnRef
			if ref, err = s.BeginTurn(ctx, conv, "a turn that never ends", ModeChat); err == nil {
				fmt.Println(ref.TurnID)
				select {}
			}
		}
		fmt.Fprintln(os.Stderr, err)
		return 1
	case "worker":
		if err := workerChild(ctx, path); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "open":
		s, err := Open(ctx, path, Options{})
		if err != nil {
			kind := "other"
			for name, k := range map[string]error{"readonly": ErrReadOnly, "directory": ErrDirectory} {
				if errors.Is(err, k) {
					kind = name
				}
			}
			fmt.Printf("%s\n%s\n", kind, err)
			return 0
		}
		s.Close()
		fmt.Println("opened")
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown child mode", mode)
	return 2
}

// crashChild records turns until it is killed, printing each user
// message's id once BeginTurn has returned (committed).
func crashChild(ctx context.Context, path string) int {
	s, err := Open(ctx, path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		query := fmt.Sprintf("crash turn %d in conversation %d: weather in Adelaide", i, conv)
		ref, err := s.BeginTurn(ctx, conv, query, ModeChat)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintf(out, "%d %s\n", ref.UserMessageID, query)
		out.Flush()
		if err := s.FinishTurn(ctx, benchRecord(ref.TurnID)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
}

// workerChild waits for the start file, then writes, rates and searches
// turns; any error fails it.
func workerChild(ctx context.Context, path string) error {
	name := os.Getenv(childName)
	turns, err := strconv.Atoi(os.Getenv(childTurns))
	if err != nil {
		return err
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(os.Getenv(childStart)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return errors.New("start file never appeared")
		}
	}
	s, err := Open(ctx, path, Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat, Title: name})
	if err != nil {
		return err
	}
	q, err := ParseQuery("adelaide tool:weather", nil)
	if err != nil {
		return err
	}
	for i := range turns {
		ref, err := s.BeginTurn(ctx, conv, fmt.Sprintf("%s turn %d: weather in Adelaide", name, i), ModeChat)
		if err != nil {
			return fmt.Errorf("begin: %w", err)
		}
		if err := s.FinishTurn(ctx, benchRecord(ref.TurnID)); err != nil {
			return fmt.Errorf("finish: %w", err)
		}
		if err := s.Rate(ctx, Rating{TurnID: ref.TurnID, Score: ScoreUp}); err != nil {
			return fmt.Errorf("rate: %w", err)
		}
		if _, err := s.Search(ctx, q, 20); err != nil {
			return fmt.Errorf("search: %w", err)
		}
		if _, err := s.Conversations(ctx, 10); err != nil {
			return fmt.Errorf("list: %w", err)
		}
	}
	return nil
}

// child prepares the test binary to run as a child in mode.
func child(t *testing.T, mode, path string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childMode+"="+mode, childDB+"="+path)
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// openTest opens a new database in a test directory.
func openTest(t *testing.T, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "gear.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fixedClock returns a clock that starts at start and moves a second per
// reading.
func fixedClock(start time.Time) func() time.Time {
	n := 0
	return func() time.Time {
		n++
		return start.Add(time.Duration(n) * time.Second)
	}
}
