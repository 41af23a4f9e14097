package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// MaxDescription bounds a tool's description in runes: a server cannot
// flood prompts or the screen through it.
const MaxDescription = 1024

// Tool is one tool of an MCP server as a gear tool.
type Tool struct {
	spec   tools.Spec
	remote string // the tool's own name on its server
	conn   *Conn
}

// Spec is the tool's description as data.
func (t *Tool) Spec() tools.Spec { return t.spec }

// Remote is the tool's name on its server.
func (t *Tool) Remote() string { return t.remote }

// Run calls the tool on its server with the call's arguments, within
// Options.CallTimeout. An isError result is an *tools.InputError the model
// can read; a protocol failure is one readable line.
func (t *Tool) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	// ParamsFromSchema names each parameter after its property, so the
	// call's arguments are the server's, written as the JSON they are.
	return t.conn.call(ctx, t.spec.Name, t.remote, tools.ArgsJSON(call))
}

// Tools lists the server's tools (every page) and makes each a gear tool.
// A tool gear cannot take (a name that does not fit, a schema it cannot
// read) is left out and explained in skipped; it never fails the others.
func (c *Conn) Tools(ctx context.Context) (ts []*Tool, skipped []string, err error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.ConnectTimeout)
	defer cancel()
	seen := map[string]string{}
	leftOut := map[string]LeftOut{}
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, nil, c.protocolError("listing tools", ctx, err)
		}
		tool, err := c.newTool(t)
		if err != nil {
			skipped = append(skipped, oneLine(err.Error()))
			leftOut[t.Name] = c.leftOut(t, oneLine(err.Error()))
			continue
		}
		if other, dup := seen[tool.spec.Name]; dup {
			why := fmt.Sprintf("tool %q is named %s like tool %q; left out", oneLine(t.Name), tool.spec.Name, other)
			skipped = append(skipped, why)
			leftOut[t.Name] = c.leftOut(t, why)
			continue
		}
		seen[tool.spec.Name] = oneLine(t.Name)
		ts = append(ts, tool)
	}
	c.mu.Lock()
	c.skipped = leftOut
	c.mu.Unlock()
	return ts, skipped, nil
}

// LeftOut is a tool the server lists that gear's library does not take (a
// name that does not fit, a schema gear cannot read, a name another tool
// has): gear mcp call still reaches it, with raw JSON the server checks.
type LeftOut struct {
	// Name is how gear names it to people and in agent.allowed_tools:
	// server.tool, sanitised.
	Name string
	// Why it is not in the library, one line.
	Why string
	// Effect follows the tool's readOnlyHint, as for any MCP tool.
	Effect tools.Effect
}

func (c *Conn) leftOut(t *sdk.Tool, why string) LeftOut {
	name, err := tools.QualifiedName(c.server.Name, t.Name)
	if err != nil {
		name = c.server.Name + "." + oneLine(t.Name)
	}
	effect := tools.EffectWrites
	if t.Annotations != nil && t.Annotations.ReadOnlyHint {
		effect = tools.EffectReadOnly
	}
	return LeftOut{Name: name, Why: why, Effect: effect}
}

// LeftOutTool says whether the last listing left the server's tool remote
// out of the library, and why.
func (c *Conn) LeftOutTool(remote string) (LeftOut, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	lo, ok := c.skipped[remote]
	return lo, ok
}

// newTool reads one listed tool into a Spec.
func (c *Conn) newTool(t *sdk.Tool) (*Tool, error) {
	name, err := tools.QualifiedName(c.server.Name, t.Name)
	if err != nil {
		return nil, err
	}
	// The schema as the server wrote it keeps its properties' order (the
	// positional call form's); schemaText is the fallback when the bytes
	// were not seen.
	schema, ok := c.raw.schema(t.Name, t.InputSchema)
	if !ok {
		var err error
		schema, err = schemaText(t.InputSchema)
		if err != nil || t.InputSchema == nil {
			schema = []byte(`{"type":"object"}`)
		}
	}
	params, err := tools.ParamsFromSchema(schema)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", name, err)
	}
	effect := tools.EffectWrites
	if t.Annotations != nil && t.Annotations.ReadOnlyHint {
		effect = tools.EffectReadOnly
	}
	desc := description(t)
	spec := tools.Spec{
		Name:        name,
		Family:      tools.Family(serverPart(name)),
		Description: desc,
		Params:      params,
		Source:      tools.Source{Kind: tools.SourceMCP, Name: c.server.Name},
		Effect:      effect,
		InputSchema: schema,
	}
	var output json.RawMessage
	if t.OutputSchema != nil {
		output, _ = json.Marshal(t.OutputSchema)
	}
	spec.OutputPattern = outputPattern(output)
	if !effect.ReadOnly() {
		// Grounding never runs a tool that may change something just to
		// score it (GEAR, arXiv:2307.08775, Appendix A.3): it reads this mock.
		spec.Mock = mockResponse(output, desc, params)
	}
	return &Tool{spec: spec, remote: t.Name, conn: c}, nil
}

// description is the tool's description (or title, or name), sanitised to
// one line and bounded.
func description(t *sdk.Tool) string {
	d := oneLine(t.Description)
	if d == "" {
		d = oneLine(t.Title)
	}
	if d == "" && t.Annotations != nil {
		d = oneLine(t.Annotations.Title)
	}
	if d == "" {
		d = strings.ReplaceAll(oneLine(t.Name), "_", " ")
	}
	if r := []rune(d); len(r) > MaxDescription {
		d = string(r[:MaxDescription]) + "…"
	}
	return d
}

func serverPart(qualified string) string {
	s, _, _ := strings.Cut(qualified, ".")
	return s
}

// call runs one tool call with the deadline and the cap.
func (c *Conn) call(ctx context.Context, name, remote string, args json.RawMessage) (tools.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.CallTimeout)
	defer cancel()
	res, err := c.session.CallTool(ctx, &sdk.CallToolParams{Name: remote, Arguments: args})
	if err != nil {
		return tools.Result{}, c.protocolError("calling "+name, ctx, err)
	}
	text, data := c.render(name, res)
	if res.IsError {
		return tools.Result{}, failure(name, text)
	}
	return tools.Result{Text: text, Data: data}, nil
}

// Call runs the server's tool remote with raw JSON arguments (gear mcp
// call): no parsing against gear's parameters, the server checks them.
func (c *Conn) Call(ctx context.Context, remote string, args json.RawMessage) (tools.Result, error) {
	if len(strings.TrimSpace(string(args))) == 0 {
		args = json.RawMessage("{}")
	}
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil || m == nil {
		return tools.Result{}, tools.Inputf("arguments %s: want a JSON object such as {\"a\": 2}", clip(oneLine(string(args)), 80))
	}
	name, err := tools.QualifiedName(c.server.Name, remote)
	if err != nil {
		name = c.server.Name + "." + sanitize.Line(remote)
	}
	return c.call(ctx, name, remote, args)
}

// ProtocolError is a failed exchange with a server: the connection broke,
// the deadline passed, or the server answered with a JSON-RPC error.
type ProtocolError struct {
	Server  string
	Doing   string
	Err     error
	secrets []string
}

func (e *ProtocolError) Error() string {
	return "mcp server " + e.Server + ": " + e.Doing + ": " + clip(scrub(oneLine(e.Err.Error()), e.secrets), 500)
}

func (e *ProtocolError) Unwrap() error { return e.Err }

func (c *Conn) protocolError(doing string, ctx context.Context, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		err = fmt.Errorf("no answer within the deadline: %w", context.DeadlineExceeded)
	case errors.Is(err, sdk.ErrConnectionClosed):
		err = errors.New("the connection is closed (the server stopped?)")
		if c.stderr != nil {
			if tail := c.stderr.lastLine(); tail != "" {
				err = fmt.Errorf("%w; it said: %s", err, tail)
			}
		}
	}
	return &ProtocolError{Server: c.server.Name, Doing: doing, Err: err, secrets: c.secrets}
}
