package mcp

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"mime"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// render turns a tool's result into text people and models read: text
// parts as they are, structured content as compact JSON (unless a text
// part already says the same), images and audio saved under the data
// directory with their path shown, resource links and embedded resources
// named. All of it is sanitised and the whole is cut at max bytes.
func (c *Conn) render(tool string, r *sdk.CallToolResult) (text string, data any) {
	var parts []string
	texts := map[string]bool{}
	for _, content := range r.Content {
		var p string
		switch v := content.(type) {
		case *sdk.TextContent:
			p = v.Text
			texts[strings.TrimSpace(v.Text)] = true
		case *sdk.ImageContent:
			p = c.saveBinary(tool, "image", v.MIMEType, v.Data)
		case *sdk.AudioContent:
			p = c.saveBinary(tool, "audio", v.MIMEType, v.Data)
		case *sdk.ResourceLink:
			p = describeLink(v)
		case *sdk.EmbeddedResource:
			p = c.embedded(tool, v.Resource)
		default:
			p = fmt.Sprintf("[%T content not shown]", content)
		}
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if r.StructuredContent != nil {
		js, err := json.Marshal(r.StructuredContent)
		if err == nil && !texts[string(js)] && !sameJSON(texts, r.StructuredContent) && !coveredBy(r.StructuredContent, strings.Join(parts, "\n")) {
			parts = append(parts, string(js))
		}
		data = r.StructuredContent
	}
	text = sanitize.Text(strings.Join(parts, "\n"))
	if len(text) > c.opts.MaxResultBytes {
		text = clip(text, c.opts.MaxResultBytes) + fmt.Sprintf("\n[result cut at %d bytes]", c.opts.MaxResultBytes)
	}
	return text, data
}

// sameJSON reports whether one of the text parts is the structured content
// written another way (indented, keys reordered): servers often send both.
func sameJSON(texts map[string]bool, v any) bool {
	want, err := json.Marshal(v)
	if err != nil {
		return false
	}
	for t := range texts {
		var got any
		if json.Unmarshal([]byte(t), &got) != nil {
			continue
		}
		if g, err := json.Marshal(got); err == nil && string(g) == string(want) {
			return true
		}
	}
	return false
}

// coveredBy reports whether the text parts already say everything the
// structured content holds: each of its strings and numbers appears in
// them (a server that wraps its text as {"content": "..."}).
func coveredBy(v any, text string) bool {
	if text == "" {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if !coveredBy(e, text) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !coveredBy(e, text) {
				return false
			}
		}
		return true
	case string:
		return strings.Contains(text, strings.TrimSpace(x))
	case float64:
		return containsNumber(text, tools.FormatNumber(x))
	}
	return true // booleans and null say nothing the text must repeat
}

// containsNumber reports whether num appears in text as a number of its
// own, not inside a longer one ("2" is not in "2026").
func containsNumber(text, num string) bool {
	isNum := func(c byte) bool { return c >= '0' && c <= '9' || c == '.' }
	for i := 0; ; {
		j := strings.Index(text[i:], num)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(num)
		if (start == 0 || !isNum(text[start-1])) && (end == len(text) || !isNum(text[end])) {
			return true
		}
		i = start + 1
	}
}

func describeLink(l *sdk.ResourceLink) string {
	name := l.Title
	if name == "" {
		name = l.Name
	}
	s := "[resource: " + oneLine(name)
	if l.URI != "" {
		s += " <" + oneLine(l.URI) + ">"
	}
	if l.Description != "" {
		s += " — " + clip(oneLine(l.Description), 200)
	}
	return s + "]"
}

func (c *Conn) embedded(tool string, rc *sdk.ResourceContents) string {
	if rc == nil {
		return ""
	}
	if rc.Text != "" || rc.Blob == nil {
		head := "[resource <" + oneLine(rc.URI) + ">]"
		return head + "\n" + rc.Text
	}
	return c.saveBinary(tool, "resource", rc.MIMEType, rc.Blob)
}

// saveBinary writes binary content to DataDir/mcp/ and says where; without
// a data directory, or past the size cap, it says what was not saved.
func (c *Conn) saveBinary(tool string, kind, mimeType string, data []byte) string {
	desc := fmt.Sprintf("%s, %s, %d bytes", kind, oneLine(mimeType), len(data))
	if c.opts.DataDir == "" {
		return "[" + desc + ", not saved: no data directory]"
	}
	if len(data) > c.opts.MaxResultBytes {
		return fmt.Sprintf("[%s, not saved: larger than the %d-byte cap]", desc, c.opts.MaxResultBytes)
	}
	dir := filepath.Join(c.opts.DataDir, "mcp")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "[" + desc + ", not saved: " + oneLine(err.Error()) + "]"
	}
	// Named by content: the same image (a tool run again, or run by
	// grounding to score it and then for the answer) is one file.
	sum := sha256.Sum256(data)
	name := fmt.Sprintf("%s-%x%s", safeFileName(tool), sum[:8], extension(mimeType))
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return "[" + desc + ", not saved: " + oneLine(err.Error()) + "]"
	}
	return "[" + desc + " saved to " + path + "]"
}

// extension is a file extension for a MIME type the server named; an
// unknown or hostile type gets ".bin".
func extension(mimeType string) string {
	switch strings.ToLower(strings.TrimSpace(mimeType)) {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "audio/wav", "audio/x-wav":
		return ".wav"
	case "audio/mpeg":
		return ".mp3"
	}
	if exts, err := mime.ExtensionsByType(mimeType); err == nil && len(exts) > 0 && safeFileName(exts[0]) == exts[0] {
		return exts[0]
	}
	return ".bin"
}

// safeFileName keeps letters, digits, '.', '-' and '_' of a name a server
// chose, so it can never leave the directory.
func safeFileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	out := strings.TrimLeft(string(b), ".")
	if out == "" {
		return "tool"
	}
	return out
}

// failure is an isError result: a failure the model can read and the user
// sees, as one sanitised line.
func failure(name, text string) error {
	text = oneLine(text)
	if text == "" {
		text = "no details given"
	}
	return &tools.InputError{Msg: name + " reported an error: " + clip(text, 1000)}
}
