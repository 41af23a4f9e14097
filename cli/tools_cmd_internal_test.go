package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// externalSpecs are tools from the two other sources, with the hostile
// text an MCP server may send.
func externalSpecs(t *testing.T) []tools.Spec {
	t.Helper()
	params, err := tools.ParamsFromSchema(json.RawMessage(`{"type": "object",
		"properties": {"message": {"type": "string", "description": "what to echo\n\u001b[31mred"},
			"times": {"type": "integer", "default": 1}, "tone": {"type": "string", "enum": ["calm", "loud"]},
			"day": {"type": "string", "format": "date"}, "slug": {"type": "string", "pattern": "^[a-z]+$"}},
		"required": ["message"]}`))
	if err != nil {
		t.Fatal(err)
	}
	return []tools.Spec{
		{Name: "everything.echo", Family: "mcp", Description: "Echo \u001b]0;pwned\u0007back", Params: params,
			Source: tools.Source{Kind: tools.SourceMCP, Name: "everything"}, Effect: tools.EffectReadOnly},
		{Name: "deploy", Family: "ops", Description: "Deploy the site",
			Source:   tools.Source{Kind: tools.SourceFile, Name: "/home/u/.config/gear/tools/deploy.yaml"},
			Examples: []tools.Example{{Query: "ship it", Call: "deploy()"}}},
	}
}

func TestToolListShowsSourcesParametersAndExamples(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	writeToolList(&b, externalSpecs(t))
	out := b.String()
	for _, part := range []string{
		"everything.echo(message: string, [times: integer], [tone: enum], [day: string], [slug: string])  [mcp]",
		"Source: mcp:everything · read-only",
		"message (string): what to echo red",
		"times (integer, optional): Default: 1.",
		"tone (enum, optional): One of: calm, loud.",
		"day (string date, optional)",
		"slug (string, optional): Matching: ^[a-z]+$.",
		"Source: /home/u/.config/gear/tools/deploy.yaml · effect not declared: asks before running",
		`"ship it" -> deploy()`,
	} {
		if !strings.Contains(out, part) {
			t.Errorf("listing lacks %q:\n%s", part, out)
		}
	}
	if strings.ContainsAny(out, "\u001b\u0007") {
		t.Errorf("listing lets terminal escapes through: %q", out)
	}
}

func TestToolListingJSON(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := writeJSON(&b, toolListing(externalSpecs(t))); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d tools", len(got))
	}
	echo := got[0]
	if echo["name"] != "everything.echo" || echo["wire_name"] != "everything__echo" || !strings.HasPrefix(echo["signature"].(string), "everything.echo(message: string") {
		t.Errorf("echo: %v", echo)
	}
	if src, _ := echo["source"].(map[string]any); src["kind"] != "mcp" || src["name"] != "everything" {
		t.Errorf("echo source %v", echo["source"])
	}
	if src, _ := got[1]["source"].(map[string]any); src["kind"] != "file" {
		t.Errorf("deploy source %v", got[1]["source"])
	}
}
