package tools

import "strings"

// SavedPrefix starts the line of a tool's response that names a file the
// tool saved ("Image saved: /…/fox.png"), so the chat window and `gear
// ask --show` can draw or link it without knowing the tool.
const SavedPrefix = "Image saved: "

// SavedLine is the line naming a saved image.
func SavedLine(path string) string { return SavedPrefix + path }

// SavedFiles are the files a response says were saved: the SavedLine
// lines, and the "[… saved to PATH]" notes of MCP results.
func SavedFiles(response string) []string {
	var out []string
	for _, line := range strings.Split(response, "\n") {
		line = strings.TrimSpace(line)
		if p, ok := strings.CutPrefix(line, SavedPrefix); ok && p != "" {
			out = append(out, p)
			continue
		}
		for rest := line; ; {
			i := strings.Index(rest, " saved to ")
			if i < 0 {
				break
			}
			rest = rest[i+len(" saved to "):]
			if j := strings.IndexByte(rest, ']'); j > 0 {
				out = append(out, rest[:j])
				rest = rest[j:]
			}
		}
	}
	return out
}
