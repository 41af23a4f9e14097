package ui

import (
	"strings"
	"testing"
)

func TestStableCut(t *testing.T) {
	cases := []struct {
		text       string
		from       int
		fenced     bool
		want       int
		wantFenced bool
	}{
		{"one paragraph, still being written", 0, false, 0, false},
		{"first\n\nsecond", 0, false, 7, false},
		{"first\n\nsecond\n\nthi", 0, false, 15, false},
		{"```go\nx := 1\n\ny := 2\n", 0, false, 0, false},
		{"```go\nx := 1\n\ny := 2\n```\n\nafter", 0, false, 26, false},
		{"x := 1\n\n```\n\nmore", 0, true, 13, false},
		{"x := 1\n```\n\nmore", 0, true, 12, false},
		{"first\n\nsecond\n\n", 7, false, 15, false},
	}
	for _, c := range cases {
		fenced := c.fenced
		if got := stableCut(c.text, c.from, &fenced); got != c.want || fenced != c.wantFenced {
			t.Errorf("stableCut(%q, %d, %v) = %d, %v; want %d, %v", c.text, c.from, c.fenced, got, fenced, c.want, c.wantFenced)
		}
	}
}

// Streamed piece by piece, an answer of paragraphs and a code block looks
// as it does rendered whole.
func TestStreamedAnswerMatchesTheWhole(t *testing.T) {
	m := newTestModel(t, newFakeAgent(t), nil, 80, 24)
	answer := "The first paragraph says what the tool found.\n\n```\ncode line one\n\ncode line two\n```\n\n" +
		"A second paragraph, long enough to be wrapped at sixty columns of text in the window.\n\nThe end."
	var s streamed
	var got []string
	for i := 1; i <= len(answer); i += 7 {
		got = s.render(m.paint.md, answer[:i], 60)
	}
	got = s.render(m.paint.md, answer, 60)
	want := m.paint.md.render(answer, 60)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("streamed:\n%s\nwhole:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.done == 0 {
		t.Error("no block was kept: every piece rendered the whole answer")
	}
}
