package main

import (
	"os"
	"strings"
	"testing"
)

// maxReadmeLines keeps the README to a user's first hour; everything else
// has its page in docs/ (docs/development.md, "Documentation").
const maxReadmeLines = 300

func TestReadmeStaysShort(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to its page in docs/ and link it", n, maxReadmeLines)
	}
}
