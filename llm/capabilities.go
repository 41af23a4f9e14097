package llm

import (
	"fmt"
	"strings"
)

// Capabilities is what gear uses on a kind of server. The request builder
// reads it, so asking for something a server lacks fails before any request
// with ErrUnsupported, and the agent can pick its emission path from it.
type Capabilities struct {
	Server ServerKind
	// JSONSchema: output constrained to a JSON schema; JSONSchemaField is
	// the request field that carries it.
	JSONSchema      bool
	JSONSchemaField string
	// Grammar: a GBNF grammar (llama.cpp; vLLM reads it with its own
	// grammar backend).
	Grammar bool
	// Regex and Choice: output matching a regular expression, or exactly
	// one of a list of strings.
	Regex  bool
	Choice bool
	// GuideWithTools: guided decoding may be combined with tools.
	GuideWithTools bool
	// StrictTools: tools marked strict, with parallel_tool_calls false.
	StrictTools bool
	// Logprobs with up to MaxTopLogprobs candidates per token.
	Logprobs       bool
	MaxTopLogprobs int
	// LogitBias (keys are the server's token ids).
	LogitBias bool
	// Prefill: a trailing assistant message is continued, which is what
	// NextTokens needs with a non-empty prefix on the chat endpoint.
	Prefill bool
	// Completions: the legacy /v1/completions endpoint.
	Completions string
}

// CapabilitiesOf gives the capabilities of a kind of server, as each
// server's documentation describes it (see docs/models.md, "What gear uses on each server").
func CapabilitiesOf(kind ServerKind) Capabilities {
	switch kind {
	case ServerOpenAI:
		return Capabilities{Server: kind, JSONSchema: true, JSONSchemaField: "response_format json_schema, strict",
			GuideWithTools: true, StrictTools: true, Logprobs: true, MaxTopLogprobs: 20, LogitBias: true,
			Completions: "instruct models only"}
	case ServerOllama:
		return Capabilities{Server: kind, JSONSchema: true, JSONSchemaField: "response_format json_schema (its format)",
			GuideWithTools: true, Logprobs: true, MaxTopLogprobs: 20, Prefill: true, Completions: "yes"}
	case ServerLlamaCpp:
		return Capabilities{Server: kind, JSONSchema: true, JSONSchemaField: "json_schema (top level)",
			Grammar: true, Choice: true, Logprobs: true, MaxTopLogprobs: 20, LogitBias: true, Prefill: true,
			Completions: "yes"}
	case ServerVLLM:
		return Capabilities{Server: kind, JSONSchema: true, JSONSchemaField: "structured_outputs.json",
			Grammar: true, Regex: true, Choice: true, GuideWithTools: true, Logprobs: true, MaxTopLogprobs: 20,
			LogitBias: true, Prefill: true, Completions: "yes"}
	case ServerLMStudio:
		return Capabilities{Server: kind, JSONSchema: true, JSONSchemaField: "response_format json_schema",
			Completions: "yes"}
	}
	return Capabilities{Server: ServerGeneric, JSONSchema: true, JSONSchemaField: "response_format json_schema",
		Logprobs: true, MaxTopLogprobs: 5, Completions: "yes"}
}

// CapabilityTable is the table of docs/models.md, generated from CapabilitiesOf so
// the two cannot drift apart.
func CapabilityTable() string {
	kinds := ServerKinds()
	caps := make([]Capabilities, len(kinds))
	for i, k := range kinds {
		caps[i] = CapabilitiesOf(k)
	}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "—"
	}
	rows := []struct {
		name string
		cell func(Capabilities) string
	}{
		{"JSON schema", func(c Capabilities) string { return c.JSONSchemaField }},
		{"GBNF grammar", func(c Capabilities) string {
			switch {
			case c.Server == ServerLlamaCpp:
				return "`grammar` (not with `json_schema` or tools)"
			case c.Grammar:
				return "structured_outputs.grammar"
			}
			return "—"
		}},
		{"regex", func(c Capabilities) string {
			if c.Regex {
				return "structured_outputs.regex"
			}
			return "—"
		}},
		{"choice", func(c Capabilities) string {
			switch {
			case c.Server == ServerLlamaCpp:
				return "as a generated `grammar`"
			case c.Choice:
				return "structured_outputs.choice"
			}
			return "—"
		}},
		{"guided + tools", func(c Capabilities) string { return yes(c.GuideWithTools) }},
		{"strict tools, parallel_tool_calls false", func(c Capabilities) string { return yes(c.StrictTools) }},
		{"logprobs / top_logprobs", func(c Capabilities) string {
			if c.Logprobs {
				return fmt.Sprintf("yes, ≤ %d", c.MaxTopLogprobs)
			}
			return "—"
		}},
		{"logit_bias", func(c Capabilities) string { return yes(c.LogitBias) }},
		{"assistant prefill", func(c Capabilities) string {
			if c.Server == ServerVLLM {
				return "yes (continue_final_message)"
			}
			return yes(c.Prefill)
		}},
		{"legacy /v1/completions", func(c Capabilities) string { return c.Completions }},
		{"temperature 0 sent", func(Capabilities) string { return "yes" }},
	}
	var b strings.Builder
	b.WriteString("| gear uses |")
	for _, k := range kinds {
		b.WriteString(" " + string(k) + " |")
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(kinds)))
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("| " + r.name + " |")
		for _, c := range caps {
			b.WriteString(" " + r.cell(c) + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}
