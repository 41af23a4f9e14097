package declared

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the programs command tools run: with
// GEAR_DECLARED_HELPER set (a declared env: entry, since commands do not
// inherit gear's environment) it acts that part and exits.
func TestMain(m *testing.M) {
	switch os.Getenv("GEAR_DECLARED_HELPER") {
	case "":
		os.Exit(m.Run())
	case "args":
		// Prints its arguments as a JSON list, so a test sees each
		// argument's exact bytes.
		b, _ := json.Marshal(os.Args[1:])
		os.Stdout.Write(b)
	case "spew":
		// Prints 10 MB.
		line := []byte(strings.Repeat("x", 1023) + "\n")
		for i := 0; i < 10<<10; i++ {
			if _, err := os.Stdout.Write(line); err != nil {
				os.Exit(1)
			}
		}
	case "hang":
		// Starts a child that never exits, writes its pid where the
		// test can find it, and never exits either.
		child := exec.Command(os.Args[0])
		child.Env = []string{"GEAR_DECLARED_HELPER=sleep"}
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.WriteFile(os.Args[1], []byte(strconv.Itoa(child.Process.Pid)), 0o600)
		time.Sleep(time.Hour)
	case "cwd":
		wd, _ := os.Getwd()
		fmt.Print(wd)
	case "sleep":
		time.Sleep(time.Hour)
	case "fail":
		fmt.Fprintln(os.Stderr, "warming up\nno such record: \x1b[31mred\x1b[0m")
		os.Exit(4)
	case "env":
		fmt.Print(os.Getenv("API_KEY"), "|", os.Getenv("SECRET_NOT_DECLARED"))
	}
	os.Exit(0)
}

// helperProgram is the test binary's path, for argv[0].
func helperProgram(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// processGone reports whether pid has exited (a zombie no one reaped
// counts as gone: it runs nothing).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return true
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	// The state follows the command name in parentheses: "pid (comm) Z ...".
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}

func writeFile(path, body string) error { return os.WriteFile(path, []byte(body), 0o600) }
