// Package catalog reads a tool library file: an MCP-shaped list of tools
// (name, description, inputSchema) with optional usage examples, the
// format of the public tool-selection benchmarks gear is measured on
// (docs/benchmarks.md). A library's tools are descriptions only: they have
// no executor. Grounding scores them without running them (they say they
// may change something, so grounding reads their arguments as the
// response, as for any tool it must not run), and running one explicitly
// fails with one line saying so.
package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// MaxDescription bounds a tool's description in runes, as an MCP server's
// is bounded: a file cannot flood prompts or the screen through it.
const MaxDescription = 1024

// MaxFileBytes bounds the file read: the largest public library (Seal-Tools,
// 4,076 tools) is under 2 MB.
const MaxFileBytes = 64 << 20

// Library is a library file's tools, with what its header says of them.
type Library struct {
	// Path is the file read; every tool's source names it.
	Path string
	// Name, Origin and License are the file's "name", "source" and
	// "license" (Origin is where the tools were taken from, a repository
	// and commit).
	Name    string
	Origin  string
	License string
	Tools   []*Tool
	// Warnings are the tools (or examples) left out, one line each,
	// naming the file and what is wrong.
	Warnings []string
}

// Tool is one tool of a library file: a description without an executor.
type Tool struct {
	spec tools.Spec
	// OriginalName is the source's name of the tool when Name had to
	// change (FORMAT: "original_name"); empty otherwise.
	OriginalName string
}

// Spec is the tool's description as data.
func (t *Tool) Spec() tools.Spec { return t.spec }

// NoExecutorError is a library file's tool asked to run.
type NoExecutorError struct {
	Tool string
	File string
}

func (e *NoExecutorError) Error() string {
	return fmt.Sprintf("tool %s comes from the tool library %s, which describes tools without running them: it has no executor (grounding scores it; nothing can run it)", e.Tool, e.File)
}

// Run refuses: the file describes the tool, nothing runs it.
func (t *Tool) Run(context.Context, tools.Call) (tools.Result, error) {
	return tools.Result{}, &NoExecutorError{Tool: t.spec.Name, File: t.spec.Source.Name}
}

// FileError is a library file that cannot be read at all: missing, not
// JSON, not a library. Its message is one line naming the file.
type FileError struct {
	Path string
	Msg  string
	Err  error
}

func (e *FileError) Error() string { return "tool library " + e.Path + ": " + e.Msg }

func (e *FileError) Unwrap() error { return e.Err }

// Load reads a library file.
func Load(path string) (*Library, error) {
	raw, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return parse(raw, path)
}

// readFile reads a library file's bytes.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &FileError{Path: path, Msg: "no such file", Err: err}
		}
		return nil, &FileError{Path: path, Msg: oneLine(err.Error()), Err: err}
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() <= MaxFileBytes {
		// Read into a buffer of the file's size, not one grown by
		// doubling (a 1.8 MB library was 4.8 MB of allocations).
		buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
		if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileBytes+1)); err != nil {
			return nil, &FileError{Path: path, Msg: oneLine(err.Error()), Err: err}
		}
		if buf.Len() > MaxFileBytes {
			return nil, tooLarge(path)
		}
		return buf.Bytes(), nil
	}
	return readAll(f, path)
}

// file is the document's shape; tools are kept raw so that one bad tool
// is skipped, not the file.
type file struct {
	Name    string            `json:"name"`
	Source  string            `json:"source"`
	License string            `json:"license"`
	Tools   []json.RawMessage `json:"tools"`
}

// entry is one tool as the file gives it.
type entry struct {
	Name         *string         `json:"name"`
	OriginalName string          `json:"original_name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	Examples     []example       `json:"examples"`
}

type example struct {
	Query     string          `json:"query"`
	Arguments json.RawMessage `json:"arguments"`
}

// Read reads a library from r; path names it in the tools' source and in
// messages. A file that is not a library is a *FileError; a tool that
// cannot be read (no name, a name taken, a schema gear cannot read) is
// left out with a warning, and so is an example that does not fit its
// tool; the rest loads.
func Read(r io.Reader, path string) (*Library, error) {
	raw, err := readAll(r, path)
	if err != nil {
		return nil, err
	}
	return parse(raw, path)
}

// readAll reads a library file's bytes, at most MaxFileBytes.
func readAll(r io.Reader, path string) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, &FileError{Path: path, Msg: oneLine(err.Error()), Err: err}
	}
	if len(raw) > MaxFileBytes {
		return nil, tooLarge(path)
	}
	return raw, nil
}

// tooLarge is the error of a file over MaxFileBytes.
func tooLarge(path string) *FileError {
	return &FileError{Path: path, Msg: fmt.Sprintf("larger than %d MB; a tool library is a list of descriptions", MaxFileBytes>>20)}
}

// parse reads the library in raw.
func parse(raw []byte, path string) (*Library, error) {
	// One pass reads a well-formed file; a file with a bad tool is read
	// again tool by tool, so that the others load.
	var fast struct {
		file
		Tools []entry `json:"tools"`
	}
	if err := json.Unmarshal(raw, &fast); err == nil && fast.Tools != nil {
		entries := make([]json.RawMessage, len(fast.Tools))
		return assemble(path, fast.file, entries, fast.Tools), nil
	}
	var doc file
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&doc); err != nil {
		return nil, &FileError{Path: path, Msg: "not a tool library (want a JSON object with a \"tools\" list): " + jsonProblem(raw, err), Err: err}
	}
	if doc.Tools == nil {
		return nil, &FileError{Path: path, Msg: "no \"tools\" list: want {\"name\": ..., \"tools\": [{\"name\", \"description\", \"inputSchema\"}, ...]}"}
	}
	return assemble(path, doc, doc.Tools, nil), nil
}

// assemble reads the tools — decoded already (entries) or raw — and keeps
// those that can be used, with a warning for each left out.
func assemble(path string, doc file, raws []json.RawMessage, entries []entry) *Library {
	lib := &Library{Path: path, Name: oneLine(doc.Name), Origin: oneLine(doc.Source), License: oneLine(doc.License)}
	family := tools.Family(familyOf(lib.Name))
	seen := map[string]int{}
	wires := map[string]string{}
	for i, r := range readTools(raws, entries, path, family) {
		t, name, warns, err := r.tool, r.name, r.warns, r.err
		where := fmt.Sprintf("tool library %s: tool %d", path, i+1)
		if name != "" {
			where += " (" + clip(oneLine(name), 80) + ")"
		}
		for _, w := range warns {
			lib.Warnings = append(lib.Warnings, where+": "+w)
		}
		if err != nil {
			lib.Warnings = append(lib.Warnings, where+": "+err.Error()+"; left out")
			continue
		}
		if first, dup := seen[t.spec.Name]; dup {
			lib.Warnings = append(lib.Warnings, fmt.Sprintf("%s: the name %s is taken by tool %d; left out (names must be unique)", where, t.spec.Name, first))
			continue
		}
		if other, dup := wires[t.spec.WireName()]; dup {
			lib.Warnings = append(lib.Warnings, fmt.Sprintf("%s: model APIs would call it %s, like %s; left out", where, t.spec.WireName(), other))
			continue
		}
		seen[t.spec.Name] = i + 1
		wires[t.spec.WireName()] = t.spec.Name
		lib.Tools = append(lib.Tools, t)
	}
	return lib
}

// familyOf is the tools' family: the library's name, as an MCP server's
// tools share their server's, in the letters a family is written with.
func familyOf(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	if f := strings.Trim(b.String(), "-"); f != "" {
		return f
	}
	return "library"
}

// jsonProblem says where JSON went wrong: line and column of a syntax
// error, or the decoder's message.
func jsonProblem(raw []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := position(raw, se.Offset)
		return fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, se.Error())
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		line, col := position(raw, te.Offset)
		field := te.Field
		if field == "" {
			field = "the document"
		}
		return fmt.Sprintf("at line %d, column %d: %s is a JSON %s, want %s", line, col, field, te.Value, te.Type)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "the JSON ends early"
	}
	return oneLine(err.Error())
}

func position(raw []byte, off int64) (line, col int) {
	if off > int64(len(raw)) {
		off = int64(len(raw))
	}
	before := raw[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 0
	if col == 0 {
		col = 1
	}
	return line, col
}

// oneLine is s sanitised to one line, runs of spaces as one.
func oneLine(s string) string {
	if plainLine(s) {
		return s // most descriptions: nothing to change
	}
	return strings.Join(strings.Fields(sanitize.Line(s)), " ")
}

// plainLine reports printable ASCII with single inner spaces and none at
// the ends: what oneLine would return unchanged.
func plainLine(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// ToolList is the library's tools as tools.Tool, for tools.NewRegistry.
func (l *Library) ToolList() []tools.Tool {
	out := make([]tools.Tool, len(l.Tools))
	for i, t := range l.Tools {
		out[i] = t
	}
	return out
}
