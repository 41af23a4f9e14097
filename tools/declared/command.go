package declared

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// commandExec runs a program with an argument vector built from
// templates. There is no shell, ever: each element is one argument, so
// shell metacharacters in an argument are only bytes. The program runs in
// its own process group, killed whole when the deadline passes or the
// output goes over its cap.
type commandExec struct {
	program   string
	args      []template
	stdin     *template
	dir       string
	env       []namedTemplate
	timeout   time.Duration
	maxOutput int64
	getenv    func(string) string
	path      string // the declaring file, for messages
}

// inheritedEnv are the variables of gear's environment a command gets;
// anything else it needs is declared under env:, so a key reaches only
// the program that asks for it.
var inheritedEnv = []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "TZ", "TMPDIR"}

// maxStderr is how much of a failing command's error output is kept for
// its message.
const maxStderr = 4 << 10

func parseCommand(ps *problems, n *yaml.Node, spec tools.Spec, path string, opts Options) executor {
	f, ok := readFields(ps, n, "command", "argv", "stdin", "dir", "env", "timeout", "max_output")
	if !ok {
		return nil
	}
	x := &commandExec{getenv: opts.Getenv, path: path}
	argv, hasArgv := f.values["argv"]
	if !hasArgv || argv.Kind != yaml.SequenceNode || len(argv.Content) == 0 {
		ps.at(f.keyOr("argv", n), `command needs argv: a list, the program then its arguments, e.g. ["/usr/bin/printf", "%%s\n", "{text}"] (no shell)`)
		return nil
	}
	for i, el := range argv.Content {
		if el.Kind != yaml.ScalarNode || el.Tag == "!!null" {
			ps.at(el, "argv[%d] must be a text, not %s", i, describeNode(el))
			continue
		}
		t, err := parseTemplate(el.Value, false)
		if err != nil {
			ps.at(el, "argv[%d]: %v", i, err)
			continue
		}
		if err := t.check(spec); err != nil {
			ps.at(el, "argv[%d]: %v", i, err)
			continue
		}
		if i == 0 {
			if len(t.params()) > 0 || el.Value == "" {
				ps.at(el, "argv[0] is the program and must be fixed text, not a parameter")
				continue
			}
			x.program = t.parts[0].lit
			if strings.ContainsRune(x.program, filepath.Separator) {
				x.program = relativeTo(path, x.program)
			}
			continue
		}
		x.args = append(x.args, t)
	}
	if in, ok := f.values["stdin"]; ok {
		src, _ := f.str(ps, "stdin")
		if t, err := parseTemplate(src, false); err != nil {
			ps.at(in, "stdin: %v", err)
		} else if err := t.check(spec); err != nil {
			ps.at(in, "stdin: %v", err)
		} else {
			x.stdin = &t
		}
	}
	dir, _ := f.str(ps, "dir")
	x.dir = relativeTo(path, dir)
	x.env = namedTemplates(ps, f, "env", spec, true)
	for _, e := range x.env {
		if !envRefPattern.MatchString(e.name) {
			ps.at(f.values["env"], "env name %q: want letters, digits and _", e.name)
		}
	}
	x.timeout = durationField(ps, f, "timeout", defaultCommandTimeout)
	x.maxOutput = bytesField(ps, f, "max_output", defaultMaxOutput)
	return x
}

func (x *commandExec) defaultEffect() tools.Effect { return tools.EffectWrites }

func (x *commandExec) run(ctx context.Context, call tools.Call) ([]byte, error) {
	var secrets []string
	out, err := x.exec(ctx, call, &secrets)
	if err != nil {
		return nil, fmt.Errorf("%s", redact(err.Error(), secrets))
	}
	return out, nil
}

func (x *commandExec) exec(ctx context.Context, call tools.Call, secrets *[]string) ([]byte, error) {
	plain := expansion{call: call, getenv: x.getenv}
	args := make([]string, 0, len(x.args))
	for i, t := range x.args {
		v, present, err := t.fill(plain, fmt.Sprintf("argv[%d]", i+1))
		if err != nil {
			return nil, err
		}
		if present {
			args = append(args, v)
		}
	}
	env := []string{}
	for _, name := range inheritedEnv {
		if v := x.getenv(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	withSecrets := plain
	withSecrets.secrets = secrets
	for _, e := range x.env {
		v, present, err := e.t.fill(withSecrets, "env "+e.name)
		if err != nil {
			return nil, err
		}
		if present {
			env = append(env, e.name+"="+v)
		}
	}

	runCtx, cancel := context.WithTimeout(ctx, x.timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, x.program, args...)
	cmd.Dir = x.dir
	cmd.Env = env
	if x.stdin != nil {
		in, _, err := x.stdin.fill(plain, "stdin")
		if err != nil {
			return nil, err
		}
		cmd.Stdin = strings.NewReader(in)
	}
	stdout := &capWriter{max: x.maxOutput, over: cancel}
	stderr := &capWriter{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	ownProcessGroup(cmd)
	// After the kill, give the pipes a moment: a grandchild that escaped
	// the group must not hold the call open.
	cmd.WaitDelay = time.Second

	err := cmd.Run()
	switch {
	case stdout.exceeded():
		return nil, fmt.Errorf("the command printed more than %d bytes and was stopped; narrow what it prints, or raise max_output in %s", x.maxOutput, x.path)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("the command was cancelled: %w", ctx.Err())
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("the command did not finish within %s and was stopped (its processes killed); raise timeout in %s if it needs longer", x.timeout, x.path)
	case err != nil:
		return nil, x.failure(err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// failure explains a command that could not start or exited non-zero,
// with the last line of its error output.
func (x *commandExec) failure(err error, stderr string) error {
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		msg := fmt.Sprintf("the command failed (%s)", exitErr.ProcessState.String())
		if line := lastLine(stderr); line != "" {
			msg += ": " + line
		}
		return errors.New(msg)
	}
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("program %q not found; install it, or fix argv in %s", x.program, x.path)
	}
	if errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("program %q cannot be run (permission denied); check argv and dir in %s", x.program, x.path)
	}
	return fmt.Errorf("the command could not run: %v; check argv and dir in %s", unwrapPath(err), x.path)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	last := strings.Join(strings.Fields(sanitize.Line(lines[len(lines)-1])), " ")
	return capText(last, 300)
}

// capWriter keeps at most max bytes; past that it notes the overflow and
// calls over (which stops the program), dropping the rest.
type capWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	max  int64
	over func()
	hit  bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	room := w.max - int64(w.buf.Len())
	if int64(len(p)) > room {
		if room > 0 {
			w.buf.Write(p[:room])
		}
		if !w.hit {
			w.hit = true
			if w.over != nil {
				w.over()
			}
		}
		return len(p), nil
	}
	w.buf.Write(p)
	return len(p), nil
}

func (w *capWriter) exceeded() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hit && w.over != nil
}

func (w *capWriter) Bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Bytes()
}

func (w *capWriter) String() string { return string(w.Bytes()) }
