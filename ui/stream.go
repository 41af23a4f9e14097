package ui

import (
	"strings"

	"github.com/rivo/uniseg"
)

// Glamour's word wrap costs the square of the length of a run of text
// without white space: 3,200 CJK characters take a quarter of a second,
// 32 KiB without a space four seconds. So text is rendered as Markdown only
// in pieces it handles quickly, and as plain wrapped text otherwise.
const (
	// maxMarkdownRun is the longest run of characters without white space
	// that a block may hold and still go through Glamour.
	maxMarkdownRun = 400
	// maxLiveMarkdown is the largest unfinished block re-rendered as
	// Markdown on each streamed piece; a longer one streams as plain text
	// (wrapped where the last piece left off) until it is complete.
	maxLiveMarkdown = 2 << 10
	// maxLiveRun is the longest run without white space in an unfinished
	// block re-rendered as Markdown on each piece (a CJK sentence or two).
	maxLiveRun = 160
)

// streamed is the rendered part of an answer still being written: the
// blocks of it that are complete (ended by a blank line outside a code
// fence), each rendered once, and the unfinished last block — small, as
// Markdown again on each piece; large, as plain text whose wrapped lines
// are kept once a later line starts. A streamed piece so costs about its
// own length, whatever came before it.
type streamed struct {
	width  int
	done   int      // bytes of the answer rendered into lines
	lines  []string // the complete blocks' lines
	fenced bool     // done ends inside a code fence

	// scan is how far complete lines were read looking for a block's end,
	// scanFenced whether scan is inside a fence.
	scan       int
	scanFenced bool

	// tailAt is where the last block's plain lines that may still change
	// begin; tailLines are its lines before that, final.
	tailAt    int
	tailLines []string
}

// render returns the answer's lines while it streams. answer is the text
// as received; every piece is cleaned before it is drawn.
func (s *streamed) render(md *markdown, answer string, width int) []string {
	if s.width != width || s.done > len(answer) {
		*s = streamed{width: width}
	}
	if cut := s.stableCut(answer); cut > s.done {
		if len(s.lines) > 0 {
			s.lines = append(s.lines, "")
		}
		s.lines = append(s.lines, renderBlock(md, clean(answer[s.done:cut]), width)...)
		s.done, s.tailAt, s.tailLines = cut, cut, nil
	}
	tail := answer[s.done:]
	if strings.TrimSpace(tail) == "" {
		return s.lines
	}
	out := append([]string(nil), s.lines...)
	if len(out) > 0 {
		out = append(out, "")
	}
	if len(tail) <= maxLiveMarkdown && longestRun(tail) <= maxLiveRun {
		return append(out, md.render(clean(tail), width)...)
	}
	return append(out, s.plainTail(answer, width)...)
}

// stableCut is the end of the last complete block of the answer: just past
// a blank line outside a code fence. It reads each complete line once, over
// all the pieces of a stream.
func (s *streamed) stableCut(text string) int {
	if s.scan <= s.done {
		s.scan, s.scanFenced = s.done, s.fenced
	}
	cut := s.done
	for s.scan < len(text) {
		end := strings.IndexByte(text[s.scan:], '\n')
		if end < 0 {
			break // an unfinished line
		}
		line := strings.TrimSpace(text[s.scan : s.scan+end])
		s.scan += end + 1
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			s.scanFenced = !s.scanFenced
		case line == "" && !s.scanFenced:
			cut, s.fenced = s.scan, false
		}
	}
	return cut
}

// plainTail is the unfinished block as plain text: the lines wrapped
// before tailAt are kept, only the rest is wrapped again.
func (s *streamed) plainTail(answer string, width int) []string {
	inner := max(width-len(answerIndent), 10)
	lines, starts := wrapCells(answer[s.tailAt:], inner)
	for _, l := range lines[:len(lines)-1] {
		s.tailLines = append(s.tailLines, plainLine(l, inner)...)
	}
	s.tailAt += starts[len(starts)-1]
	out := append([]string(nil), s.tailLines...)
	return append(out, plainLine(lines[len(lines)-1], inner)...)
}

// plainLine is one wrapped line of received text, cleaned and indented.
func plainLine(l string, inner int) []string {
	out := fitLines([]string{cleanLine(l)}, inner)
	for i := range out {
		out[i] = answerIndent + out[i]
	}
	return out
}

// renderMarkdown renders a whole answer: through Glamour in one piece when
// every run without white space is short, else block by block, the blocks
// with a long run as plain text.
func renderMarkdown(md *markdown, text string, width int) []string {
	if longestRun(text) <= maxMarkdownRun {
		return md.render(text, width)
	}
	var s streamed
	s.width = width
	return s.render(md, text+"\n\n", width)
}

// renderBlock renders one complete block: Markdown, unless it holds a run
// too long for Glamour.
func renderBlock(md *markdown, block string, width int) []string {
	if longestRun(block) > maxMarkdownRun {
		return plainLines(block, width)
	}
	return md.render(block, width)
}

// longestRun is the most characters in a row without white space.
func longestRun(s string) int {
	longest, run := 0, 0
	for _, r := range s {
		switch r {
		case ' ', '\t', '\n', '\r':
			run = 0
		default:
			run++
			longest = max(longest, run)
		}
	}
	return longest
}

// wrapCells wraps text at width terminal cells, at a space where the line
// has one and between characters where it does not, in one pass. It
// returns the lines and where each starts in text. Breaks depend only on
// the text before them, so once a later line has started, a line's wrap is
// final however the text goes on.
func wrapCells(text string, width int) (lines []string, starts []int) {
	start, cells := 0, 0
	space, afterSpace := -1, 0 // the current line's last space, cells since
	emit := func(end, next int) {
		lines = append(lines, strings.TrimRight(text[start:end], " \t"))
		starts = append(starts, start)
		start = next
	}
	state := -1
	for i := 0; i < len(text); {
		cluster, _, w, st := uniseg.FirstGraphemeClusterInString(text[i:], state)
		state = st
		if cluster == "" {
			break
		}
		switch cluster {
		case "\n", "\r\n":
			emit(i, i+len(cluster))
			cells, space, afterSpace = 0, -1, 0
			i += len(cluster)
			continue
		case "\t":
			w = 4
		}
		blank := cluster == " " || cluster == "\t"
		if cells+w > width && cells > 0 {
			if blank { // break at this space, which goes
				emit(i, i+len(cluster))
				cells, space, afterSpace = 0, -1, 0
				i += len(cluster)
				continue
			}
			if space > start {
				emit(space, space+1)
				cells = afterSpace
			} else {
				emit(i, i)
				cells = 0
			}
			space = -1
		}
		if blank {
			space, afterSpace = i, 0
		} else {
			afterSpace += w
		}
		cells += w
		i += len(cluster)
	}
	emit(len(text), len(text))
	return lines, starts
}
