package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// machineReference matches what a clone of the repository cannot follow:
// a local copy of a paper (cite it by title and arXiv id instead) and a
// path in the shared work directory of the machine gear was written on
// (name the repository and commit instead).
var machineReference = regexp.MustCompile(`papers/[A-Za-z0-9_.-]+\.txt|/work/`)

// TestNoMachineReferences reads every non-test Go file and every Markdown
// file of the repository and fails on each machineReference, naming the
// file and line.
func TestNoMachineReferences(t *testing.T) {
	t.Parallel()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		isGo := strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go")
		if !isGo && !strings.HasSuffix(path, ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := machineReference.FindString(line); m != "" {
				t.Errorf("%s:%d: %q: cite a paper by title and arXiv id (GEAR arXiv:2307.08775, ToolDec arXiv:2310.07075) and data by repository and commit, not by a path on one machine", path, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The pattern catches both kinds of reference and leaves alike-looking
// text alone.
func TestMachineReferencePattern(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"(papers/gear.txt, Appendix G)":            true,
		"see papers/tooldec.txt":                   true,
		"copied from /work/shared/fixtures/openai": true,
		"GEAR (arXiv:2307.08775, Appendix G)":      false,
		"show me /tmp/notes.txt":                   false,
		"../shared/benchmarks":                     false,
	} {
		if got := machineReference.MatchString(text); got != want {
			t.Errorf("machineReference.MatchString(%q) = %v, want %v", text, got, want)
		}
	}
}
