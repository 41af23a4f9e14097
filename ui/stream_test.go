package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestStableCut(t *testing.T) {
	t.Parallel()
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
		s := streamed{done: c.from, fenced: c.fenced}
		if got := s.stableCut(c.text); got != c.want || s.fenced != c.wantFenced {
			t.Errorf("stableCut(%q, %d, %v) = %d, %v; want %d, %v", c.text, c.from, c.fenced, got, s.fenced, c.want, c.wantFenced)
		}
	}
}

// Streamed piece by piece, an answer of paragraphs and a code block looks
// as it does rendered whole.
func TestStreamedAnswerMatchesTheWhole(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, newFakeAgent(t), nil, 80, 24)
	answer := "The first paragraph says what the tool found.\n\n```\ncode line one\n\ncode line two\n```\n\n" +
		"A second paragraph, long enough to be wrapped at sixty columns of text in the window.\n\nThe end."
	var s streamed
	var got []string
	for i := 1; i <= len(answer); i += 7 {
		s.render(m.paint.md, answer[:i], 60) // each prefix, as chunks arrive
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

func TestWrapCells(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text  string
		width int
		want  []string
	}{
		{"", 10, []string{""}},
		{"short", 10, []string{"short"}},
		{"one two three four", 9, []string{"one two", "three", "four"}},
		{strings.Repeat("a", 25), 10, []string{"aaaaaaaaaa", "aaaaaaaaaa", "aaaaa"}},
		{"汉字汉字汉字", 5, []string{"汉字", "汉字", "汉字"}},
		{"line one\nline two", 20, []string{"line one", "line two"}},
		{"ab\tc", 4, []string{"ab", "c"}},
	}
	for _, c := range cases {
		got, starts := wrapCells(c.text, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") || len(starts) != len(got) {
			t.Errorf("wrapCells(%q, %d) = %q %v, want %q", c.text, c.width, got, starts, c.want)
		}
	}
}

// A line's wrap is final once the next has started: wrapping again from
// where the last line starts gives what wrapping the whole text gives.
func TestWrapCellsIsPrefixStable(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("一段中文回答， with some English words and a verylongwordwithoutanyspaceatall ", 40)
	whole, _ := wrapCells(text, 33)
	var kept []string
	at := 0
	for end := 1; end <= len(text); end += 7 {
		lines, starts := wrapCells(text[at:min(end, len(text))], 33)
		kept = append(kept, lines[:len(lines)-1]...)
		at += starts[len(starts)-1]
	}
	lines, _ := wrapCells(text[at:], 33)
	kept = append(kept, lines...)
	if strings.Join(kept, "\n") != strings.Join(whole, "\n") {
		t.Errorf("piecewise wrap differs from the whole:\n%s\n---\n%s", strings.Join(kept, "\n"), strings.Join(whole, "\n"))
	}
}

// Answers Glamour renders in quadratic time — long CJK paragraphs, text
// without spaces — cost about their length while they stream and once
// they are done: the bytes given to Glamour stay within a small multiple
// of the answer, and every line fits the window.
func TestLongAnswersStreamInLinearWork(t *testing.T) {
	t.Parallel()
	answers := map[string]string{
		"4,000 CJK characters":    strings.Repeat("这是一个很长的中文回答，没有空格。", 250),
		"32 KiB without a space":  strings.Repeat("x", 32<<10),
		"prose and one long line": strings.Repeat("A paragraph of prose that wraps. ", 20) + "\n\n" + strings.Repeat("y", 8<<10) + "\n\nThe end.",
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			md := newMarkdown(newStyles(testRenderer(), false))
			var s streamed
			var got []string
			for end := 16; end < len(answer)+16; end += 16 {
				got = s.render(md, answer[:min(end, len(answer))], 80)
			}
			final := renderMarkdown(md, answer, 80)
			if md.fed > 4*len(answer) {
				t.Errorf("Glamour was given %d bytes for an answer of %d", md.fed, len(answer))
			}
			for _, lines := range [][]string{got, final} {
				for _, l := range lines {
					if w := ansi.StringWidth(l); w > 80 {
						t.Fatalf("a line of %d cells: %q", w, l)
					}
				}
			}
			// No character is lost: the text without white space is the same.
			squeeze := func(s string) string { return strings.Join(strings.Fields(ansi.Strip(s)), "") }
			if squeeze(strings.Join(final, "\n")) != squeeze(answer) {
				t.Errorf("the rendered answer lost text")
			}
		})
	}
}
