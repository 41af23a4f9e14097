package store

import "fmt"

// MaxText bounds one text a turn stores — the query, the answer, a tool's
// call and response, an error — and what is read back of one: a model or a
// tool that sends megabytes cannot fill the history, its search index or
// the memory of whoever reads it. Longer text is cut, marked by cutMark.
const MaxText = 64 << 10

// cutMark ends a text that was cut at MaxText.
const cutMark = "\n[… cut: gear keeps 64 KiB of one text]"

// capText cuts s to MaxText bytes, the mark included, on a character
// boundary.
func capText(s string) string {
	if len(s) <= MaxText {
		return s
	}
	return truncateBytes(s, MaxText-len(cutMark)) + cutMark
}

// clipped is a column read at most MaxText characters (one more, so a
// longer text is known by its length and capText marks it), so a huge
// value written by an older gear is not read whole into memory.
func clipped(column string) string {
	return fmt.Sprintf("substr(%s, 1, %d)", column, MaxText+1)
}
