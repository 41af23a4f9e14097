package ui

// conversation is the scrolling list of entries. Only the entries on
// screen are rendered (each keeps its lines for its width), so a long
// conversation costs nothing per keystroke and a resize re-renders only
// what is shown. The position is an anchor — an entry and the lines of it
// scrolled past — rather than a line number, so it needs no line count of
// the whole conversation.
type conversation struct {
	entries []*entry
	// follow keeps the view at the bottom as lines arrive; when false the
	// view starts at line skip of entry top.
	follow    bool
	top, skip int
}

func newConversation() conversation { return conversation{follow: true} }

func (c *conversation) add(e *entry) { c.entries = append(c.entries, e) }

// lastTurn is the most recent turn, nil when there is none.
func (c *conversation) lastTurn() *entry {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i].kind == entryTurn {
			return c.entries[i]
		}
	}
	return nil
}

// lastCard is the most recent turn with a grounding card.
func (c *conversation) lastCard() *entry {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i].hasCard() {
			return c.entries[i]
		}
	}
	return nil
}

// view is exactly height lines: the visible part of the conversation.
func (c *conversation) view(p *painter, width, height int) []string {
	if height <= 0 {
		return nil
	}
	var out []string
	if !c.follow {
		for i, skip := c.top, c.skip; i < len(c.entries) && len(out) < height; i, skip = i+1, 0 {
			ls := p.lines(c.entries[i], width)
			if skip < len(ls) {
				out = append(out, ls[skip:]...)
			}
		}
	}
	if c.follow || len(out) < height {
		out = c.bottom(p, width, height)
	}
	if len(out) > height {
		out = out[:height]
	}
	if len(out) < height {
		// A short conversation sits just above the input, as in a terminal.
		out = append(make([]string, height-len(out)), out...)
	}
	return out
}

// bottom is the last height lines, rendering backwards from the end.
func (c *conversation) bottom(p *painter, width, height int) []string {
	var chunks [][]string
	n := 0
	for i := len(c.entries) - 1; i >= 0 && n < height; i-- {
		ls := p.lines(c.entries[i], width)
		chunks = append(chunks, ls)
		n += len(ls)
	}
	out := make([]string, 0, n)
	for i := len(chunks) - 1; i >= 0; i-- {
		out = append(out, chunks[i]...)
	}
	if len(out) > height {
		out = out[len(out)-height:]
	}
	return out
}

// scroll moves the view by delta lines (negative is up).
func (c *conversation) scroll(p *painter, width, height, delta int) {
	if delta == 0 || len(c.entries) == 0 {
		return
	}
	if c.follow {
		if delta > 0 || !c.anchorAtBottom(p, width, height) {
			return
		}
	}
	c.skip += delta
	for c.skip < 0 && c.top > 0 {
		c.top--
		c.skip += len(p.lines(c.entries[c.top], width))
	}
	c.skip = max(c.skip, 0)
	for c.top < len(c.entries)-1 && c.skip >= len(p.lines(c.entries[c.top], width)) {
		c.skip -= len(p.lines(c.entries[c.top], width))
		c.top++
	}
	if c.linesFrom(p, width, height) < height {
		c.toBottom()
	}
}

// anchorAtBottom turns the bottom view into an anchor; false when the
// whole conversation fits and there is nothing to scroll.
func (c *conversation) anchorAtBottom(p *painter, width, height int) bool {
	n := 0
	for i := len(c.entries) - 1; i >= 0; i-- {
		h := len(p.lines(c.entries[i], width))
		if n+h >= height {
			c.top, c.skip, c.follow = i, n+h-height, false
			return true
		}
		n += h
	}
	return false
}

// linesFrom counts the lines from the anchor, up to limit.
func (c *conversation) linesFrom(p *painter, width, limit int) int {
	n := -c.skip
	for i := c.top; i < len(c.entries) && n < limit; i++ {
		n += len(p.lines(c.entries[i], width))
	}
	return n
}

func (c *conversation) toBottom() { c.follow, c.top, c.skip = true, 0, 0 }

// showFrom puts the start of entry i at the top of the view (a long
// /tools listing is read from its start), or follows the bottom when the
// rest fits.
func (c *conversation) showFrom(i int, p *painter, width, height int) {
	c.follow, c.top, c.skip = false, i, 0
	if c.linesFrom(p, width, height) < height {
		c.toBottom()
	}
}
