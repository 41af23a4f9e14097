package constrain

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// typicalCalls are calls of the kind gear emits.
func typicalCalls() []string {
	return []string{
		`TimezoneConverter("2022-01-02 22:00:00", "Asia/Shanghai", "America/New_York")`,
		`Calculator(25% of 54,788)`,
		`WeatherSearch("Berlin", "tomorrow")`,
		`{"tool": "Calculator", "args": {"expression": "max(1, 2, 3) + sqrt(16)"}}`,
		`WikiSearch("Ghana flag")`,
	}
}

type tokenStep struct {
	from  State
	token string
}

// tokenSteps cuts the typical calls into model-sized tokens (1 to 6 bytes)
// and records the state each token is advanced from.
func tokenSteps(m *Machine) []tokenStep {
	r := rand.New(rand.NewPCG(1, 2))
	var steps []tokenStep
	for _, c := range typicalCalls() {
		s := m.Start()
		for len(c) > 0 {
			n := min(len(c), 1+r.IntN(6))
			steps = append(steps, tokenStep{s, c[:n]})
			s, _ = m.Advance(s, c[:n])
			c = c[n:]
		}
	}
	return steps
}

func BenchmarkAdvanceToken(b *testing.B) {
	m := testMachine(b)
	steps := tokenSteps(m)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st := steps[i%len(steps)]
		if _, ok := m.Advance(st.from, st.token); !ok {
			b.Fatal("refused")
		}
	}
}

// BenchmarkFilterTopLogprobs filters 20 candidates, what an OpenAI-style
// top_logprobs step gives, most of them not allowed.
func BenchmarkFilterTopLogprobs(b *testing.B) {
	m := testMachine(b)
	steps := tokenSteps(m)
	noise := []string{"product", " the", "\"", ")", "3", ",", " of", "(", "}", "\n", "Calc", "abc", ".", "-", "%", "e", "1", "\"}", "x"}
	cands := make([][]Candidate, len(steps))
	for i, st := range steps {
		cands[i] = []Candidate{{Token: st.token}}
		for _, n := range noise {
			cands[i] = append(cands[i], Candidate{Token: n})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(steps)
		m.Filter(steps[k].from, cands[k])
	}
}

func BenchmarkValidateTypicalCall(b *testing.B) {
	m := testMachine(b)
	for _, c := range typicalCalls()[:2] {
		b.Run(strings.SplitN(c, "(", 2)[0], func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := m.Validate(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMachineOnly times the machine's own pass over a typical call,
// without tools.Parse building the call value.
func BenchmarkMachineOnly(b *testing.B) {
	m := testMachine(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !m.Accepts(typicalCalls()[0]) {
			b.Fatal("refused")
		}
	}
}

func BenchmarkAllowed(b *testing.B) {
	m := testMachine(b)
	s, _ := m.Advance(m.Start(), `TimezoneConverter("2022-01-02 22:00`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Allowed(s)
	}
}

// syntheticSpecs is a library of n tools with every parameter type and a
// distinct enum per tool (so each compiles its own pattern).
func syntheticSpecs(n int) []tools.Spec {
	r := rand.New(rand.NewPCG(9, 9))
	types := []tools.ParamType{tools.TypeNumber, tools.TypeInteger, tools.TypeString, tools.TypePlace, tools.TypeDate, tools.TypeDateTime}
	specs := make([]tools.Spec, n)
	for i := range specs {
		var params []tools.Param
		for k := 0; k < 1+r.IntN(3); k++ {
			params = append(params, tools.Param{Name: fmt.Sprintf("p%d", k), Type: types[r.IntN(len(types))]})
		}
		params = append(params, tools.Param{Name: "mode", Type: tools.TypeEnum, Optional: true,
			Enum: []string{fmt.Sprintf("fast%d", i), fmt.Sprintf("slow%d", i), "auto"}})
		if i%10 == 0 {
			params = append(params, tools.Param{Name: "expr", Type: tools.TypeExpression, Optional: true})
		}
		specs[i] = tools.Spec{
			Name:        fmt.Sprintf("%sTool%04d", []string{"Search", "Convert", "Get", "Compute", "Lookup"}[i%5], i),
			Family:      "synthetic",
			Description: "a synthetic tool",
			Params:      params,
		}
	}
	return specs
}

func BenchmarkBuild1000Tools(b *testing.B) {
	specs := syntheticSpecs(1000)
	b.ReportAllocs()
	var m *Machine
	for i := 0; i < b.N; i++ {
		var err error
		if m, err = New(specs...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.Size()), "machine-bytes")
}

// BenchmarkFullVocabularyMask computes what XGrammar, llguidance and
// Outlines compute per token: the set of allowed tokens of a whole
// vocabulary (here 32,000 synthetic tokens), by advancing every token.
func BenchmarkFullVocabularyMask(b *testing.B) {
	m := testMachine(b)
	r := rand.New(rand.NewPCG(5, 6))
	const alphabet = "etaoinshrdlucmfwypvbgkjqxzETAOINSHRCMW0123456789 ,.()\"{}:%+-*/_\n"
	vocab := make([]string, 32000)
	for i := range vocab {
		n := 1 + r.IntN(7)
		var sb strings.Builder
		for k := 0; k < n; k++ {
			sb.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		vocab[i] = sb.String()
	}
	steps := tokenSteps(m)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		from := steps[i%len(steps)].from
		allowed := 0
		for _, tok := range vocab {
			if _, ok := m.Advance(from, tok); ok {
				allowed++
			}
		}
	}
}
