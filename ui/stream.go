package ui

import "strings"

// streamed is the rendered part of an answer still being written: the
// blocks of it that are complete (ended by a blank line outside a code
// fence), each rendered once, so a streamed piece costs the rendering of
// the unfinished last block only — not of the whole answer again.
type streamed struct {
	width  int
	done   int      // bytes of the answer rendered into lines
	lines  []string // the complete blocks' lines
	fenced bool     // done ends inside a code fence
}

// render returns the answer's lines while it streams: the complete blocks
// from the cache, the rest rendered now.
func (s *streamed) render(md *markdown, answer string, width int) []string {
	if s.width != width || s.done > len(answer) {
		*s = streamed{width: width}
	}
	if cut := stableCut(answer, s.done, &s.fenced); cut > s.done {
		if len(s.lines) > 0 {
			s.lines = append(s.lines, "")
		}
		s.lines = append(s.lines, md.render(answer[s.done:cut], width)...)
		s.done = cut
	}
	tail := answer[s.done:]
	if strings.TrimSpace(tail) == "" {
		return s.lines
	}
	out := append([]string(nil), s.lines...)
	if len(out) > 0 {
		out = append(out, "")
	}
	return append(out, md.render(tail, width)...)
}

// stableCut is the end of the last complete block of text after from: just
// past a blank line that is outside a code fence. fenced carries whether
// from is inside a fence, and is left as it stands at the returned cut.
func stableCut(text string, from int, fenced *bool) int {
	cut, in := from, *fenced
	for i := from; i < len(text); {
		end := strings.IndexByte(text[i:], '\n')
		if end < 0 {
			break // an unfinished line
		}
		line := strings.TrimSpace(text[i : i+end])
		i += end + 1
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			in = !in
		case line == "" && !in:
			cut, *fenced = i, in
		}
	}
	return cut
}
