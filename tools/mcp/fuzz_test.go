package mcp

import (
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzParseFlag: any --mcp value is a server or an error, never a panic;
// a server it reads is valid, and its command line splits back to the
// same argv when written with quotes.
func FuzzParseFlag(f *testing.F) {
	for _, s := range []string{"everything=npx -y @modelcontextprotocol/server-everything", `fs=srv "a b" 'c;d'`,
		"http://localhost:3001/mcp", "https://[::1]:8080/x?k=1", "x=", "=cmd", `a="`, "", "  ", "n=\t\n", "ftp://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		s, err := ParseFlag(v)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseFlag(%q) = %+v, invalid: %v", v, s, err)
		}
		if s.IsHTTP() {
			return
		}
		var quoted []string
		for _, a := range append([]string{s.Command}, s.Args...) {
			if strings.Contains(a, `"`) {
				quoted = append(quoted, "'"+a+"'")
			} else {
				quoted = append(quoted, `"`+a+`"`)
			}
		}
		if strings.Contains(strings.Join(append([]string{s.Command}, s.Args...), ""), `"`) &&
			strings.Contains(strings.Join(append([]string{s.Command}, s.Args...), ""), "'") {
			return // both quotes in one word: not writable without escapes
		}
		again, err := SplitCommand(strings.Join(quoted, " "))
		if err != nil || strings.Join(again, "\x00") != strings.Join(append([]string{s.Command}, s.Args...), "\x00") {
			t.Fatalf("%q: argv %q, again %q (%v)", v, append([]string{s.Command}, s.Args...), again, err)
		}
	})
}

// FuzzRender: whatever text a server returns, what gear shows has no
// escape sequence, is valid UTF-8 and is cut at the cap.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[2J\x1b]0;title\x07", "\u202egnp.exe", strings.Repeat("é", 300), "\xff\xfe", "a\rb\r\nc"} {
		f.Add(s, s)
	}
	c := &Conn{opts: Options{MaxResultBytes: 256}.withDefaults()}
	f.Fuzz(func(t *testing.T, text, name string) {
		r := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}, &sdk.ResourceLink{URI: text, Name: name}},
			StructuredContent: map[string]any{"v": text}}
		out, _ := c.render("x.y", r)
		if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x9b) || !utf8.ValidString(out) {
			t.Fatalf("unsafe output %q", out)
		}
		if len(out) > 256+64 {
			t.Fatalf("%d bytes past the cap", len(out))
		}
		if err := failure("x.y", text); strings.ContainsAny(err.Error(), "\n\x1b") {
			t.Fatalf("failure %q", err)
		}
	})
}
