package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/declared"
)

// declaredTools are the tools declared in YAML files: every *.yaml and
// *.yml in the config directory's tools/ folder, then each --tools FILE.
type declaredTools struct {
	files []string
	// noted is set once the files' problems are printed, so a command
	// that builds the library twice warns once.
	noted bool
}

func (d *declaredTools) register(pf *pflag.FlagSet) {
	pf.StringArrayVar(&d.files, "tools", nil, "load the tools declared in the YAML `FILE` (repeatable; the config directory's tools/ folder is always read)")
}

// toolsDir is the config directory's tools/ folder: beside the config
// file gear reads (--config, $GEAR_CONFIG or the default).
func (a *app) toolsDir() string {
	path, _ := config.FilePath(a.configPath, a.deps.Getenv)
	if path == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(path), "tools")
}

// loadDeclared loads the declared tools. A tool whose name one of others
// (the built-in tools, and any other tools the library gets) or an
// earlier file already has is refused, never overwritten.
// Problems in the files are warnings on stderr — file:line and what to
// fix — and the other tools still load; only a --tools file that cannot
// be read at all stops the command.
func (a *app) loadDeclared(others []tools.Tool) ([]tools.Tool, error) {
	var files []string
	if dir := a.toolsDir(); dir != "" {
		found, err := declared.Dir(dir)
		if err != nil {
			a.warnDeclared([]error{err})
		}
		files = append(files, found...)
	}
	for _, f := range a.declared.files {
		if _, err := os.Stat(f); err != nil {
			return nil, usageErrorf("--tools %s: cannot read the file: %v", f, statReason(err))
		}
		if !listed(files, f) {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, nil
	}
	ts, problems := declared.LoadFiles(files, declared.Options{
		HTTP:      a.deps.HTTP,
		UserAgent: UserAgent,
		Getenv:    a.deps.Getenv,
		Timeout:   a.cfg.Tools.Timeout.D(),
		MaxBytes:  a.cfg.Tools.MaxResponseBytes,
	})
	taken := map[string]tools.Source{}
	for _, t := range others {
		s := t.Spec()
		taken[s.Name] = s.Source
		taken[tools.WireName(s.Name)] = s.Source
	}
	var out []tools.Tool
	for _, t := range ts {
		s := t.Spec()
		first, ok := taken[s.Name]
		if !ok {
			first, ok = taken[tools.WireName(s.Name)]
		}
		if ok {
			problems = append(problems, fmt.Errorf("%s: tool %s: the %s tool of that name comes first; rename the declared one", s.Source.Name, s.Name, first))
			continue
		}
		out = append(out, t)
	}
	a.warnDeclared(problems)
	return out, nil
}

func (a *app) warnDeclared(problems []error) {
	if a.declared.noted || len(problems) == 0 {
		return
	}
	a.declared.noted = true
	for _, p := range problems {
		fmt.Fprintln(a.deps.Stderr, "gear: warning: "+oneLine(p.Error())+" (skipped)")
	}
}

// statReason is why a file cannot be read, without the path repeated.
func statReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// listed reports whether files already holds f (the same file, however
// named): a file named with --tools that is also in tools/ loads once.
func listed(files []string, f string) bool {
	abs, err := filepath.Abs(f)
	if err != nil {
		return false
	}
	for _, g := range files {
		if h, err := filepath.Abs(g); err == nil && h == abs {
			return true
		}
	}
	return false
}
