package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The Markdown command reference in docs/commands is generated from the
// command tree: when a command, a flag or a help text changes, this test
// fails and says how to regenerate it.
func TestCommandReferenceIsCurrent(t *testing.T) {
	t.Parallel()
	fresh := t.TempDir()
	root := newApp(Deps{}).rootCommand()
	if err := WriteCommandReference(root, fresh); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join("..", CommandReferenceDir)
	msg, err := staleReference(committed, fresh, root.Name())
	if err != nil {
		t.Fatal(err)
	}
	if msg != "" {
		t.Fatal(msg)
	}
}

// The check fails on each kind of staleness: a changed page, a missing
// one and one left over from a removed command.
func TestStaleReferenceNamesWhatDiffers(t *testing.T) {
	t.Parallel()
	fresh := t.TempDir()
	if err := WriteCommandReference(newApp(Deps{}).rootCommand(), fresh); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		edit  func(dir string) error
		wants string
	}{
		{"changed", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "gear_ask.md"), []byte("old text\n"), 0o644)
		}, "gear_ask.md differs"},
		{"missing", func(dir string) error { return os.Remove(filepath.Join(dir, "gear_tools.md")) }, "gear_tools.md is missing"},
		{"removed command", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "gear_frobnicate.md"), []byte("x\n"), 0o644)
		}, "gear_frobnicate.md describes a command gear no longer has"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			committed := t.TempDir()
			if err := WriteCommandReference(newApp(Deps{}).rootCommand(), committed); err != nil {
				t.Fatal(err)
			}
			if err := tc.edit(committed); err != nil {
				t.Fatal(err)
			}
			msg, err := staleReference(committed, fresh, "gear")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg, tc.wants) || !strings.Contains(msg, regenerateReference) {
				t.Errorf("staleReference = %q, want it to say %q and name %q", msg, tc.wants, regenerateReference)
			}
		})
	}
}

// gear man prints a roff page for gear(1) naming the commands, dated by
// SOURCE_DATE_EPOCH; --dir writes one page per command; a broken config
// file does not stop it.
func TestManPage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("not: [valid\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"SOURCE_DATE_EPOCH": "1700000000"}
	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := Run(t.Context(), append([]string{"--config", cfg}, args...), Deps{
			Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] },
			Now: func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) },
		})
		return out.String(), errb.String(), code
	}
	out, errOut, code := run("man")
	if code != ExitOK {
		t.Fatalf("gear man exited %d: %s", code, errOut)
	}
	for _, want := range []string{`.TH "GEAR" "1" "Nov 2023" "gear ` + Version + `" "gear manual"`, "\\fBgear-ask(1)\\fP", "\\fB--offline\\fP"} {
		if !strings.Contains(out, want) {
			t.Errorf("gear man lacks %q:\n%s", want, out)
		}
	}
	pages := filepath.Join(dir, "man1")
	if _, errOut, code := run("man", "--dir", pages); code != ExitOK {
		t.Fatalf("gear man --dir exited %d: %s", code, errOut)
	}
	for _, name := range []string{"gear.1", "gear-ask.1", "gear-history-search.1"} {
		if _, err := os.Stat(filepath.Join(pages, name)); err != nil {
			t.Errorf("gear man --dir wrote no %s: %v", name, err)
		}
	}
	if _, errOut, code := run("man", "--dir", pages, "--markdown", dir); code != ExitUsage || !strings.Contains(errOut, "give one") {
		t.Errorf("--dir with --markdown: exit %d, %q; want a usage error", code, errOut)
	}
	if help, _, _ := run("--help"); strings.Contains(help, "\n  man ") {
		t.Errorf("gear man is listed in --help; it is hidden:\n%s", help)
	}
}

// commandReferenceFiles lists the generated pages in dir, by base name.
func commandReferenceFiles(dir, rootName string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, rootName+"*.md"))
	if err != nil {
		return nil, err
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	return names, nil
}

// staleReference says what differs between the committed reference and a
// fresh one, and the command that fixes it; "" when they are the same.
func staleReference(committed, fresh string, rootName string) (string, error) {
	want, err := commandReferenceFiles(fresh, rootName)
	if err != nil {
		return "", err
	}
	have, err := commandReferenceFiles(committed, rootName)
	if err != nil {
		return "", err
	}
	var problems []string
	seen := map[string]bool{}
	for _, name := range have {
		seen[name] = true
	}
	for _, name := range want {
		if !seen[name] {
			problems = append(problems, name+" is missing")
			continue
		}
		delete(seen, name)
		a, err := os.ReadFile(filepath.Join(fresh, name))
		if err != nil {
			return "", err
		}
		b, err := os.ReadFile(filepath.Join(committed, name))
		if err != nil {
			return "", err
		}
		if string(a) != string(b) {
			problems = append(problems, name+" differs")
		}
	}
	for _, name := range have {
		if seen[name] {
			problems = append(problems, name+" describes a command gear no longer has")
		}
	}
	if len(problems) == 0 {
		return "", nil
	}
	return fmt.Sprintf("the command reference in %s is stale (%s): run `%s` and commit the result",
		CommandReferenceDir, strings.Join(problems, "; "), regenerateReference), nil
}
