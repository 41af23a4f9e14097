package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// readResult is one tool's reading.
type readResult struct {
	tool  *Tool
	name  string
	warns []string
	err   error
}

// readTools reads the tools on every processor (reading a schema is most
// of loading a 4,076-tool library), each result in its tool's place.
func readTools(raws []json.RawMessage, entries []entry, path string, family tools.Family) []readResult {
	out := make([]readResult, len(raws))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(raws)/64))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(raws) {
					return
				}
				r := &out[i]
				if entries != nil {
					r.tool, r.name, r.warns, r.err = readEntry(entries[i], path, family)
				} else {
					r.tool, r.name, r.warns, r.err = readTool(raws[i], path, family)
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// readTool reads one tool, returning its name as far as it was read;
// warnings are examples left out.
func readTool(raw json.RawMessage, path string, family tools.Family) (t *Tool, name string, warns []string, err error) {
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, "", nil, fmt.Errorf("not a tool (want {\"name\", \"description\", \"inputSchema\"}): %s", jsonProblem(raw, err))
	}
	return readEntry(e, path, family)
}

// readEntry reads one decoded tool.
func readEntry(e entry, path string, family tools.Family) (t *Tool, name string, warns []string, err error) {
	if e.Name == nil || strings.TrimSpace(*e.Name) == "" {
		return nil, "", nil, errors.New("no name")
	}
	name = *e.Name
	desc := oneLine(e.Description)
	if desc == "" {
		// As for an MCP tool without one: what its name says.
		desc = strings.ReplaceAll(oneLine(name), "_", " ")
	}
	if r := []rune(desc); len(r) > MaxDescription {
		desc = string(r[:MaxDescription]) + "…"
	}
	schema := e.InputSchema
	if len(bytes.TrimSpace(schema)) == 0 || string(bytes.TrimSpace(schema)) == "null" {
		schema = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	params, err := tools.ParamsFromSchema(schema)
	if err != nil {
		// A parameter that accepts anything has no type in a library file
		// (the format says so; in JSON Schema no type means any): it is
		// read as a JSON value of any type. The schema itself, which
		// checks the arguments, is kept as the file gives it.
		if typed, ok := typeUntyped(schema); ok {
			params, err = tools.ParamsFromSchema(typed)
		}
		if err != nil {
			return nil, name, nil, err
		}
	}
	spec := tools.Spec{
		Name:        name,
		Family:      family,
		Description: desc,
		Params:      params,
		Source:      tools.Source{Kind: tools.SourceFile, Name: path},
		// The file does not say what the tool does to the world, so it
		// is taken as one that may change something: grounding never runs
		// it to score it (it reads the call's arguments instead).
		Effect:      tools.EffectWrites,
		InputSchema: schema,
	}
	if err := spec.Validate(); err != nil {
		return nil, name, nil, errors.New(strings.TrimPrefix(err.Error(), "tool "+name+": "))
	}
	var checker *tools.ArgsSchema
	for i, ex := range e.Examples {
		q := strings.TrimSpace(sanitize.Line(ex.Query))
		if q == "" {
			warns = append(warns, fmt.Sprintf("example %d has no query; left out", i+1))
			continue
		}
		args := bytes.TrimSpace(ex.Arguments)
		if len(args) == 0 || string(args) == "null" {
			// A question the tool answers, with no call shown.
			spec.Examples = append(spec.Examples, tools.Example{Query: q})
			continue
		}
		if checker == nil {
			if checker, err = tools.CompileArgsSchema(name, schema); err != nil {
				return nil, name, nil, errors.New(strings.TrimPrefix(err.Error(), "tool "+name+": "))
			}
		}
		call, err := exampleCall(spec, args, checker)
		if err != nil {
			warns = append(warns, fmt.Sprintf("example %d (%s): %v; left out", i+1, clip(q, 60), err))
			continue
		}
		spec.Examples = append(spec.Examples, tools.Example{Query: q, Call: call})
	}
	return &Tool{spec: spec, OriginalName: oneLine(e.OriginalName)}, name, warns, nil
}
