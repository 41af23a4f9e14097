package declared

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/tools"
)

// writeDecl writes a declaration file into dir and returns its path.
func writeDecl(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadOne loads a file that must declare exactly one tool without problems.
func loadOne(t *testing.T, path string, opts Options) tools.Tool {
	t.Helper()
	ts, errs := LoadFiles([]string{path}, opts)
	for _, err := range errs {
		t.Errorf("load: %v", err)
	}
	if len(ts) != 1 {
		t.Fatalf("loaded %d tools, want 1", len(ts))
	}
	return ts[0]
}

// run parses text against the tool's spec and runs it.
func run(t *testing.T, tool tools.Tool, text string) (tools.Result, error) {
	t.Helper()
	spec := tool.Spec()
	call, err := tools.Parse(text, func(name string) (tools.Spec, bool) { return spec, name == spec.Name })
	if err != nil {
		t.Fatalf("parse %s: %v", text, err)
	}
	return tool.Run(context.Background(), call)
}

func quoteYAML(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestCommandNoShell: shell metacharacters in an argument reach the
// program as bytes; no shell ran, so nothing they would do happened.
func TestCommandNoShell(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeDecl(t, dir, "echo.yaml", `
name: Echo
description: Repeats the given text back.
effect: read-only
parameters:
  type: object
  properties:
    text: {type: string, description: what to repeat}
    times: {type: integer}
  required: [text]
command:
  argv: [`+quoteYAML(helperProgram(t))+`, "--", "{text}", "n={times}"]
  env: {GEAR_DECLARED_HELPER: args}
  dir: .
`)
	tool := loadOne(t, path, Options{Getenv: func(string) string { return "" }})
	hostile := `$(touch pwned1); touch pwned2 ; rm -rf / | cat > pwned3 && echo hi > pwned4 ` + "`touch pwned5`" + ` 'x' "y" \n * ~ <in >out`
	res, err := run(t, tool, `Echo(`+tools.Quote(hostile)+`)`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
		t.Fatalf("output %q: %v", res.Text, err)
	}
	// The optional times was left out, so its argv element is dropped.
	if want := []string{"--", hostile}; strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("argv = %q, want %q", got, want)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "pwned") || e.Name() == "out" {
			t.Errorf("a shell ran: %s exists", e.Name())
		}
	}
	res, err = run(t, tool, `Echo("a b", 3)`)
	if err != nil || res.Text != `["--","a b","n=3"]` {
		t.Errorf("with times: %q, %v", res.Text, err)
	}
	// JSON output is also structured data, for gear tool --json.
	if d, ok := res.Data.([]any); !ok || len(d) != 3 || d[1] != "a b" {
		t.Errorf("data %#v", res.Data)
	}
}

// TestCommandRealProgram runs /usr/bin/printf (or /bin/echo).
func TestCommandRealProgram(t *testing.T) {
	t.Parallel()
	prog := "/usr/bin/printf"
	if _, err := os.Stat(prog); err != nil {
		t.Skip("no /usr/bin/printf on this machine")
	}
	path := writeDecl(t, t.TempDir(), "greet.yml", `
name: Greet
description: Greets a person by name.
effect: read-only
parameters:
  type: object
  properties:
    who: {type: string}
  required: [who]
examples:
  - query: say hello to Ada
    arguments: {who: Ada}
command:
  argv: [printf, "hello, %s\n", "{who}"]
`)
	tool := loadOne(t, path, Options{Getenv: os.Getenv})
	if ex := tool.Spec().Examples; len(ex) != 1 || ex[0].Call != `Greet("Ada")` {
		t.Errorf("examples = %+v", ex)
	}
	res, err := run(t, tool, `Greet("Grace %d %s")`)
	if err != nil || res.Text != "hello, Grace %d %s" {
		t.Errorf("Greet = %q, %v", res.Text, err)
	}
}

// TestCommandHugeOutput: 10 MB of output is stopped at the cap with a
// message that says what to do.
func TestCommandHugeOutput(t *testing.T) {
	t.Parallel()
	path := writeDecl(t, t.TempDir(), "spew.yaml", `
name: Spew
description: Prints far too much.
effect: read-only
command:
  argv: [`+quoteYAML(helperProgram(t))+`]
  env: {GEAR_DECLARED_HELPER: spew}
  max_output: 65536
`)
	tool := loadOne(t, path, Options{})
	start := time.Now()
	_, err := run(t, tool, `Spew()`)
	if err == nil || !strings.Contains(err.Error(), "printed more than 65536 bytes and was stopped; narrow what it prints, or raise max_output in "+path) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
}

// TestCommandNeverExits: the deadline kills the program and the child it
// started, and says so.
func TestCommandNeverExits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	path := writeDecl(t, dir, "hang.yaml", `
name: Hang
description: Never finishes.
effect: read-only
command:
  argv: [`+quoteYAML(helperProgram(t))+`, `+quoteYAML(pidFile)+`]
  env: {GEAR_DECLARED_HELPER: hang}
  timeout: 500ms
`)
	tool := loadOne(t, path, Options{})
	start := time.Now()
	_, err := run(t, tool, `Hang()`)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 500ms and was stopped (its processes killed); raise timeout in "+path) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the helper did not start its child: %v", err)
	}
	pid, _ := strconv.Atoi(string(data))
	deadline := time.Now().Add(3 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the command's child %d still runs: the process group was not killed", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCommandFailures: a non-zero exit shows the last line of error
// output, sanitised; a missing program says so.
func TestCommandFailures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeDecl(t, dir, "tools.yaml", `
tools:
  - name: Fails
    description: Always fails.
    effect: read-only
    command:
      argv: [`+quoteYAML(helperProgram(t))+`]
      env: {GEAR_DECLARED_HELPER: fail}
  - name: Missing
    description: Names a program that is not there.
    effect: read-only
    command:
      argv: [gear-no-such-program-xyz]
`)
	ts, errs := LoadFiles([]string{path}, Options{})
	if len(errs) > 0 || len(ts) != 2 {
		t.Fatalf("load: %d tools, %v", len(ts), errs)
	}
	_, err := run(t, ts[0], `Fails()`)
	if err == nil || err.Error() != "Fails: the command failed (exit status 4): no such record: red" {
		t.Errorf("Fails: %v", err)
	}
	_, err = run(t, ts[1], `Missing()`)
	if err == nil || !strings.Contains(err.Error(), `program "gear-no-such-program-xyz" not found; install it, or fix argv in `+path) {
		t.Errorf("Missing: %v", err)
	}
}

// TestCommandEnvironment: a command gets only the declared variables and
// a few harmless ones; a secret it declares is never in an error.
func TestCommandEnvironment(t *testing.T) {
	t.Parallel()
	env := map[string]string{"MY_KEY": "s3cret-value", "SECRET_NOT_DECLARED": "leak", "PATH": os.Getenv("PATH")}
	getenv := func(k string) string { return env[k] }
	path := writeDecl(t, t.TempDir(), "env.yaml", `
name: Env
description: Shows its environment.
effect: read-only
command:
  argv: [`+quoteYAML(helperProgram(t))+`]
  env: {GEAR_DECLARED_HELPER: env, API_KEY: "${MY_KEY}"}
`)
	tool := loadOne(t, path, Options{Getenv: getenv})
	res, err := run(t, tool, `Env()`)
	if err != nil || res.Text != "s3cret-value|" {
		t.Errorf("Env = %q, %v (want the declared key and not the undeclared one)", res.Text, err)
	}
	delete(env, "MY_KEY")
	_, err = run(t, tool, `Env()`)
	if err == nil || err.Error() != "Env: env API_KEY needs the environment variable MY_KEY, which is not set; export it before running gear" {
		t.Errorf("unset key: %v", err)
	}
}

// TestCommandRelativeProgram: a program named by a relative path is found
// beside the YAML file, whatever gear's working directory; dir: is
// relative to the file too.
func TestCommandRelativeProgram(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Symlink(helperProgram(t), filepath.Join(dir, "helper")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "work"), 0o700); err != nil {
		t.Fatal(err)
	}
	path := writeDecl(t, dir, "rel.yaml", `
name: Rel
description: Runs a program beside its file.
effect: read-only
command:
  argv: [./helper]
  dir: work
  env: {GEAR_DECLARED_HELPER: cwd}
`)
	res, err := run(t, loadOne(t, path, Options{}), `Rel()`)
	want, _ := filepath.EvalSymlinks(filepath.Join(dir, "work"))
	if err != nil || res.Text != want {
		t.Errorf("Rel = %q, %v; want %q", res.Text, err, want)
	}
}
