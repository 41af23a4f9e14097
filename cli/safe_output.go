package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gear-chat/gear/sanitize"
)

// encodeJSON writes v as indented JSON (or one line each, with indent "")
// in which the characters encoding/json leaves raw but that can act on a
// terminal or hide text — DEL, C1 controls, bidirectional overrides — are
// escaped as \uXXXX. The data is unchanged for a JSON reader.
func encodeJSON(w io.Writer, v any, indent string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeInvisible(buf.Bytes()))
	return err
}

// escapeInvisible escapes sanitize.Invisible characters in encoded JSON.
// JSON's structure is ASCII, so such a character is always inside a string,
// where \uXXXX is its escape.
func escapeInvisible(data []byte) []byte {
	if !bytes.ContainsFunc(data, sanitize.Invisible) {
		return data
	}
	out := make([]byte, 0, len(data)+32)
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if sanitize.Invisible(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, data[i:i+size]...)
		}
		i += size
	}
	return out
}

// csvCell makes a value safe as a CSV cell for a spreadsheet: escape
// sequences and controls removed, on one line, and text a spreadsheet
// would run as a formula (=, +, -, @, or a tab or carriage return first)
// prefixed with ' so it stays text. Numbers are left as they are.
func csvCell(s string) string {
	s = sanitize.Line(s)
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return "'" + s
}
