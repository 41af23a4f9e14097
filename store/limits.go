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

// maxReadWhole is the longest text read back at all. SQLite reads a whole
// value even to cut it (substr), so a longer one — only an older gear could
// have stored it — is not read: its place holds a note of its size, and a
// reader's memory stays bounded whatever the history holds.
const maxReadWhole = 1 << 20

// clipped is a column as history readers read it: at most MaxText
// characters (one more, so capText knows to mark the cut), and for a text
// over maxReadWhole bytes only a note (octet_length reads the size without
// the text).
func clipped(column string) string {
	return fmt.Sprintf(`CASE WHEN octet_length(%[1]s) > %[2]d THEN '[a text of ' || octet_length(%[1]s) ||
		' bytes, stored by an older gear, is not shown: gear reads at most 64 KiB of one text]'
		ELSE substr(%[1]s, 1, %[3]d) END`, column, maxReadWhole, MaxText+1)
}
