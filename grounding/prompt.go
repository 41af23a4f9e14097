package grounding

import (
	"context"
	"fmt"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// SLMProber is the model engine's Prober: it prompts a small model as the
// paper does (Appendix H, Table 15) and cuts the call out of its answer.
type SLMProber struct {
	SLM SLM
	// ResponseBudget is the response bytes one query's requests share
	// when the SLM can share a budget (SharedBudgetSLM); 0 means
	// DefaultResponseBudget.
	ResponseBudget int64
}

// DefaultResponseBudget is what one query's small-model responses may
// read between them. A call or a preliminary answer is a few hundred
// bytes of JSON (the grounding role asks for 64 tokens), so k + 1 of them
// fit many times over; a server sending more is cut, not buffered.
const DefaultResponseBudget = 4 << 20

// SharedBudgetSLM is an SLM whose calls can share one response-size
// budget: WithSharedBudget returns Complete bound to a new budget of size
// bytes. *llm.Client satisfies it.
type SharedBudgetSLM interface {
	WithSharedBudget(size int64) func(ctx context.Context, prompt string) (string, error)
}

// ForQuery is the prober for one query: its requests share one response
// budget when the SLM can.
func (p SLMProber) ForQuery() Prober {
	sb, ok := p.SLM.(SharedBudgetSLM)
	if !ok {
		return p
	}
	size := p.ResponseBudget
	if size <= 0 {
		size = DefaultResponseBudget
	}
	return SLMProber{SLM: slmFunc(sb.WithSharedBudget(size)), ResponseBudget: size}
}

// slmFunc is a function as an SLM.
type slmFunc func(ctx context.Context, prompt string) (string, error)

func (f slmFunc) Complete(ctx context.Context, prompt string) (string, error) { return f(ctx, prompt) }

// Preliminary asks the model for a zero-shot answer (Algorithm 1, line 1).
func (p SLMProber) Preliminary(ctx context.Context, query string) (string, error) {
	out, err := p.SLM.Complete(ctx, PreliminaryPrompt(query))
	if err != nil {
		return "", fmt.Errorf("grounding: preliminary answer: %w", err)
	}
	return strings.TrimSpace(out), nil
}

// Call prompts the model with the tool's description and usage examples
// and the query (Algorithm 1, line 3), and returns the first call of that
// tool in the completion, or "" when there is none.
func (p SLMProber) Call(ctx context.Context, spec tools.Spec, query string) (string, error) {
	out, err := p.SLM.Complete(ctx, CallPrompt(spec, query))
	if err != nil {
		return "", fmt.Errorf("grounding: %s call: %w", spec.Name, err)
	}
	return ExtractCall(out, spec.Name), nil
}

// PreliminaryPrompt is the prompt for â = SLM(Q).
func PreliminaryPrompt(query string) string {
	return "Answer the question briefly.\nQuestion: " + query + "\nAnswer:"
}

// CallPrompt is π_i + Q: the tool's description, how to call it, its usage
// examples, then the query, in the shape of the paper's few-shot prompts.
func CallPrompt(spec tools.Spec, query string) string {
	var b strings.Builder
	b.WriteString(spec.Description)
	b.WriteString("\nYou can call it by writing ")
	b.WriteString(spec.Signature())
	b.WriteString(", with strings in double quotes.")
	for _, p := range spec.Params {
		fmt.Fprintf(&b, "\n- %s (%s): %s", p.Name, p.Type, p.Description)
	}
	var calls, questions []tools.Example
	for _, ex := range spec.Examples {
		if ex.Call == "" {
			questions = append(questions, ex)
		} else {
			calls = append(calls, ex)
		}
	}
	if len(questions) > 0 {
		b.WriteString("\nIt answers questions such as:")
		for _, ex := range questions {
			b.WriteString("\n- ")
			b.WriteString(ex.Query)
		}
	}
	if len(calls) > 0 {
		b.WriteString("\nHere are some examples of ")
		b.WriteString(spec.Name)
		b.WriteString(" calls:")
		for _, ex := range calls {
			b.WriteString("\nInput: ")
			b.WriteString(ex.Query)
			b.WriteString("\nOutput: ")
			b.WriteString(ex.Call)
		}
	}
	b.WriteString("\nInput: ")
	b.WriteString(query)
	b.WriteString("\nOutput:")
	return b.String()
}

// RoutePrompt asks whether the query needs any tool of the library.
func RoutePrompt(specs []tools.Spec, query string) string {
	var b strings.Builder
	b.WriteString("A chatbot can use these tools:\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, s.Description)
	}
	b.WriteString("User message: ")
	b.WriteString(query)
	b.WriteString("\nDoes answering this message need one of the tools? Answer yes or no.")
	return b.String()
}

// ExtractCall finds the first call of tool name in a model's text —
// `Name(` up to its matching parenthesis, skipping parentheses inside
// string literals — or a JSON-form call naming the tool. It returns "" when
// there is none; the caller parses what it returns.
func ExtractCall(text, name string) string {
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], name+"(")
		if i < 0 {
			break
		}
		start := from + i
		// A longer identifier ending in name (MyCalculator) is not a call of name.
		if start > 0 && isIdentByte(text[start-1]) {
			from = start + len(name)
			continue
		}
		if end := matchParen(text, start+len(name)); end > 0 {
			return text[start:end]
		}
		return ""
	}
	if i := strings.Index(text, "{"); i >= 0 {
		if j := strings.LastIndex(text, "}"); j > i && strings.Contains(text[i:j], `"`+name+`"`) {
			return text[i : j+1]
		}
	}
	return ""
}

// matchParen returns the index just past the ")" closing the "(" at open,
// or -1.
func matchParen(s string, open int) int {
	depth := 0
	inString := false
	for i := open; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
