package constrain

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// adversary is a candidate source that plays against the loop: at every
// step it ranks first what a careless model would say — hallucinated tool
// names, bytes no call may hold, and (with noise) fragments of other calls
// and values of the wrong type — and offers the right token last, with the
// lowest log-probability. The right token is the next piece of the target
// call while the text is on its way there, else the next piece of some
// completion of what was decoded (found by a search in the test, so the
// source always has an allowed token to offer). From step starve on it
// offers only bytes no call may hold.
type adversary struct {
	m      *Machine
	r      *rand.Rand
	target string
	noise  []string // fragments offered before the right token
	starve int      // from this step on offer nothing allowed (-1: never)
	steps  int
	onPath bool
}

// hallucinated names: none is a prefix of a tool name of testSpecs.
func hallucinated() []string {
	return []string{"product(", "Multiply(", "calculator(", "search(", "Calculate(", "Pow2(", "sqrtx(", "WeatherSearc h(", "<T>", "multiplyy("}
}

// junk is bytes no call may hold anywhere: a NUL, DEL, invalid UTF-8.
func junk() []string { return []string{"\x00", "\x7f", "\xff", "\xc0\xaf", "\x01)"} }

func (a *adversary) Next(_ context.Context, prefix string) ([]Candidate, error) {
	step := a.steps
	a.steps++
	var cands []Candidate
	lp := 0.0
	add := func(tok string) {
		cands = append(cands, Candidate{Token: tok, Logprob: lp})
		lp -= 0.5
	}
	if a.starve >= 0 && step >= a.starve {
		for _, j := range junk() {
			add(j)
		}
		return cands, nil
	}
	if strings.TrimLeft(prefix, " \t\r\n") == "" {
		for _, h := range hallucinated() {
			add(h)
		}
	}
	for _, j := range junk() {
		add(j)
	}
	for i := 0; i < 3 && len(a.noise) > 0; i++ {
		add(a.noise[a.r.IntN(len(a.noise))])
	}
	if strings.HasPrefix(a.target, prefix) {
		rest := a.target[len(prefix):]
		add(rest[:min(len(rest), 1+a.r.IntN(6))])
		return cands, nil
	}
	a.onPath = false
	s, ok := a.m.Advance(a.m.Start(), prefix)
	if !ok {
		return nil, errors.New("the loop handed the source a prefix the machine refuses")
	}
	rest, found := completion(a.m, s)
	if !found || rest == "" {
		return cands, nil
	}
	add(rest[:min(len(rest), 1+a.r.IntN(6))])
	return cands, nil
}

func TestDecodeAdversaryCannotLeadTheLoopAstray(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	g := newGen(31, testSpecs())
	for i := 0; i < 500; i++ {
		target := g.call()
		want, err := m.Validate(target) // syntax and input schema
		if err != nil {
			continue
		}
		src := &adversary{m: m, r: g.r, target: target, starve: -1, onPath: true}
		got, err := m.Decode(context.Background(), src, DecodeOptions{})
		if err != nil {
			t.Fatalf("target %q: %v", target, err)
		}
		// Every token ranked above the right one was refused, so the loop
		// walked the target exactly.
		onTarget := strings.HasPrefix(target, got.Text) && strings.Trim(target[len(got.Text):], " \t\r\n") == ""
		if !src.onPath || !onTarget || !got.Call.Equal(want) {
			t.Fatalf("target %q, decoded %q (%#v)", target, got.Text, got.Call)
		}
	}
}

func TestDecodeNeverReturnsAnInvalidCall(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	g := newGen(32, testSpecs())
	var noise []string
	for i := 0; i < 200; i++ {
		c := g.input()
		for len(c) > 0 {
			n := min(len(c), 1+g.r.IntN(5))
			noise = append(noise, c[:n])
			c = c[n:]
		}
	}
	noise = append(noise, `"3"`, `3`, `"`, `)`, `(`, `,`, `}`, `{`, `abc`, ` of `, `%`, `1e5`)
	calls, starved, refused := 0, 0, 0
	for i := 0; i < 400; i++ {
		target := g.call()
		if _, err := m.Validate(target); err != nil {
			continue
		}
		starve := -1
		if i%4 == 0 {
			starve = g.r.IntN(8)
		}
		src := &adversary{m: m, r: g.r, target: target, noise: noise, starve: starve}
		got, err := m.Decode(context.Background(), src, DecodeOptions{})
		var ae *tools.ArgsError
		if errors.As(err, &ae) {
			// Led off the target, the loop finished a call whose JSON value
			// the tool's schema refuses: refused, not returned.
			refused++
			continue
		}
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || de.Reason != NoAllowedCandidate || de.Step != starve {
				t.Fatalf("target %q, starved from step %d: %v", target, starve, err)
			}
			if m.Accepts(de.Prefix) {
				t.Fatalf("failure carries a complete call %q", de.Prefix)
			}
			if _, ok := m.Advance(m.Start(), de.Prefix); !ok {
				t.Fatalf("failure prefix %q is not even a prefix of a call", de.Prefix)
			}
			starved++
			continue
		}
		if starve >= 0 && got.Steps > starve {
			t.Fatalf("decoded %q past a step with no allowed candidate", got.Text)
		}
		if _, perr := tools.Parse(got.Text, m.lookup); perr != nil {
			t.Fatalf("decoded %q, which the parser refuses: %v", got.Text, perr)
		}
		calls++
	}
	if calls < 150 || starved < 50 {
		t.Fatalf("%d calls, %d starved, %d refused by the schema", calls, starved, refused)
	}
}

// scripted gives the same candidates at every step.
type scripted struct {
	cands []Candidate
	err   error
}

func (s scripted) Next(context.Context, string) ([]Candidate, error) { return s.cands, s.err }

// sequence gives one list per step.
type sequence [][]Candidate

func (s *sequence) Next(context.Context, string) ([]Candidate, error) {
	if len(*s) == 0 {
		return nil, nil
	}
	c := (*s)[0]
	*s = (*s)[1:]
	return c, nil
}

func TestDecodeFailsCleanly(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	boom := errors.New("model unavailable")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		src    CandidateSource
		opts   DecodeOptions
		reason DecodeFailure
		prefix string
	}{
		{"no candidates", context.Background(), scripted{}, DecodeOptions{}, NoAllowedCandidate, ""},
		{"only hallucinations", context.Background(), scripted{cands: []Candidate{{"product(", 0}, {"Multiply(", -1}}}, DecodeOptions{}, NoAllowedCandidate, ""},
		{"empty tokens", context.Background(), scripted{cands: []Candidate{{"", 0}}}, DecodeOptions{}, NoAllowedCandidate, ""},
		{"source error", context.Background(), scripted{err: boom}, DecodeOptions{}, SourceFailed, ""},
		{"cancelled", canceled, scripted{cands: []Candidate{{"Ping()", 0}}}, DecodeOptions{}, SourceFailed, ""},
		{"white space forever", context.Background(), &sequence{{{"Pow(", 0}}, {{" ", 0}}, {{" ", 0}}, {{" ", 0}}, {{" ", 0}}}, DecodeOptions{MaxSteps: 4}, LengthBound, "Pow(   "},
		{"byte bound", context.Background(), &sequence{{{"WikiSearch(\"", 0}}, {{"a very long query", 0}}}, DecodeOptions{MaxBytes: 20}, LengthBound, "WikiSearch(\""},
		{"stuck mid-call", context.Background(), &sequence{{{"Pow(2", 0}}, {{"x", 0}, {")", -1}}}, DecodeOptions{}, NoAllowedCandidate, "Pow(2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := m.Decode(tt.ctx, tt.src, tt.opts)
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("got %+v, %v", got, err)
			}
			if de.Reason != tt.reason || de.Prefix != tt.prefix || got.Text != "" || got.Call.Tool != "" {
				t.Fatalf("reason %d prefix %q, call %+v", de.Reason, de.Prefix, got)
			}
			if tt.reason == SourceFailed && !errors.Is(err, boom) && !errors.Is(err, context.Canceled) {
				t.Fatalf("source error lost: %v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
		})
	}
}

func TestDecodeTakesTheMostProbableAllowedToken(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	src := &sequence{
		{{"product(", -0.1}, {"Pow(", -2}, {"Ping(", -1}, {"Calculator(", -1}},
		{{")", -0.5}, {"x", -0.1}},
	}
	got, err := m.Decode(context.Background(), src, DecodeOptions{})
	if err != nil || got.Text != "Ping()" || got.Steps != 2 {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestFilterKeepsAllowedInOrder(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	s, _ := m.Advance(m.Start(), "Pow(")
	in := []Candidate{{"abc", -0.1}, {"2", -0.2}, {"\"3\"", -0.3}, {"-1.5", -0.4}, {"", -0.5}, {" 7,", -0.6}, {"2)", -0.7}}
	got := m.Filter(s, in)
	want := []Candidate{{"2", -0.2}, {"-1.5", -0.4}, {" 7,", -0.6}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v", got)
		}
	}
}
