package constrain

import (
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/gear-chat/gear/tools"
)

func TestAcceptsEveryFormattedValidCall(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	g := newGen(11, testSpecs())
	valid := 0
	for i := 0; i < samples(20000); i++ {
		text := g.call()
		if i%4 == 0 {
			text = g.boundary()
		}
		call, err := tools.Parse(text, m.lookup)
		if err != nil {
			continue
		}
		valid++
		for _, form := range []string{text, call.String(), call.JSON()} {
			if !m.Accepts(form) {
				t.Fatalf("machine refuses a valid call %q (from %q)", form, text)
			}
		}
	}
	if valid < samples(10000) {
		t.Fatalf("only %d valid calls generated", valid)
	}
}

func TestStatesAreSmallValues(t *testing.T) {
	t.Parallel()
	if size := unsafe.Sizeof(State{}); size > 32 {
		t.Fatalf("State is %d bytes", size)
	}
	m := testMachine(t)
	s, ok := m.Advance(m.Start(), `Pow(2`)
	if !ok {
		t.Fatal("prefix refused")
	}
	before := s
	a, okA := m.Advance(s, ", 3)")
	b, okB := m.Advance(s, "x")
	if s != before {
		t.Fatal("Advance changed its argument")
	}
	if !okA || okB || !m.Accepting(a) || b != s {
		t.Fatalf("advance from a copied state: %v %v %v", okA, okB, m.Accepting(a))
	}
	// The same position reached two ways is the same state.
	x, _ := m.Advance(m.Start(), "Calculator( (1+2")
	y, _ := m.Advance(m.Start(), "Calculator( (1+2)")
	z, _ := m.Advance(y, "")
	if y != z || x == y {
		t.Fatal("state identity")
	}
}

func TestMachineIsSafeToShare(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			g := newGen(seed, testSpecs())
			for i := 0; i < 2000; i++ {
				in := g.input()
				if m.Accepts(in) != parserAccepts(m, in) {
					t.Errorf("disagree on %q", in)
					return
				}
			}
		}(uint64(w))
	}
	wg.Wait()
}

func TestAllowed(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	tests := []struct {
		prefix, want string
	}{
		{"", `[\t\n\r 2CPTUW_egkmns{]`},
		{"nums.sum(", `[\t\n\r [x]`},
		{"nums.sum([", `[\t\n\r \-0-9\]]`},
		{"nums.sum([1], [0", `[\t\n\r ,\]]`},
		{"nums.sum([1], [], [", `[\t\n\r \]ft]`},
		{"geo.mark([", `[\t\n\r "\]]`},
		{"kv.set(\"k\", ", `[\t\n\r "\-0-9[fntv{]`},
		{"kv.set(\"k\", [", `[\t\n\r "\-0-9[\]fnt{]`},
		{"kv.set(\"k\", {\"a\"", `[\t\n\r :]`},
		{"kv.set(\"k\", [1", `[\t\n\r ,.0-9E\]e]`},
		{"kv.set(\"k\", [1e", `[+\-0-9]`},
		{"kv.set(\"k\", [{}", `[\t\n\r ,\]]`},
		{"kv.set(\"k\", [n", `[u]`},
		{"kv.set(\"k\", 12", `[\t\n\r ),.0-9Ee]`},
		{"everything.echo", `[\t\n\r (\-]`},
		{"everything.echo-all(", `[\t\n\r ft]`},
		{"everything.echo-all(t", `[rw]`},
		{"everything.echo-all(true", `[\t\n\r ,]`},
		{"Calculator", `[\t\n\r (]`},
		{"Calc", `[\t\n\r (u]`},
		{"Pow(", `[\t\n\r \-0-9b]`},
		{"Pow(b", `[a]`},
		{"Pow(base", `[:]`},
		{"Pow(base:", `[\t\n\r \-0-9]`},
		{"Pow(base: 2, ", `[\t\n\r e]`},
		{"Pow(2, ", `[\t\n\r \-0-9e]`},
		{`{"tool": "Units", "args": {"unit": "metric", "`, `[n]`},
		{`{"tool": "Units", "args": {"`, `[u]`},
		{"Pow(0", `[\t\n\r ,.]`},
		{"sqrt(0", `[\t\n\r ).]`},
		{"Ping(", `[\t\n\r )]`},
		{"Pow(2, 3)", `[\t\n\r ]`},
		{`Units("metr`, `[i]`},
		{`Units("US`, `[ ]`},
		{`WikiSearch("\u00`, `[0-9A-Fa-f]`},
		{`WikiSearch("\uD`, `[0-7]`},
		{"WikiSearch(\"\xed", `[\x80-\x9f]`},
		{`{"tool": "Ping", "args": {`, `[\t\n\r }]`},
		{`{"tool": "Pow", "args": {`, `[\t\n\r "]`},
		{`{"tool": "Calculator", "args": {"expression": "(1`, `[ %)-9\^]`},
		{"Calculator(2 o", `[Ff]`},
		{"Calculator((1)o", `[Ff]`},
		{"Calculator(2o", ``},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			s, ok := m.Advance(m.Start(), tt.prefix)
			if !ok {
				if tt.want != "" {
					t.Fatal("prefix refused")
				}
				return
			}
			if got := m.Allowed(s).String(); got != tt.want {
				t.Fatalf("allowed %s, want %s", got, tt.want)
			}
		})
	}
}

func TestToolAndAccepting(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	for _, tt := range []struct {
		prefix string
		tool   string
		done   bool
	}{
		{"", "", false},
		{"Calcu", "", false},
		{"Calculator ", "Calculator", false},
		{`{"tool": "Pow"`, "Pow", false},
		{`{"tool": "Po`, "", false},
		{"Ping()", "Ping", true},
		{"Ping() \n", "Ping", true},
		{`{"tool": "Ping", "args": {}}`, "Ping", true},
	} {
		s, ok := m.Advance(m.Start(), tt.prefix)
		if !ok {
			t.Fatalf("%q refused", tt.prefix)
		}
		name, _ := m.Tool(s)
		if name != tt.tool || m.Accepting(s) != tt.done {
			t.Errorf("%q: tool %q accepting %v", tt.prefix, name, m.Accepting(s))
		}
	}
}

// TestEveryStateCanFinish walks reachable states and checks that each has
// a completion (found by breadth-first search over bytes) that the parser
// accepts: Allowed never leads into a dead end, which is what lets the
// decoding loop always go on when a candidate is allowed.
func TestEveryStateCanFinish(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	g := newGen(5, testSpecs())
	cp := newCompleter(m)
	checked := 0
	for i := 0; checked < samples(1500) && i < samples(100000); i++ {
		in := g.input()
		if i%3 == 0 {
			in = g.boundary()
		}
		s := m.Start()
		for k := 0; k < len(in); k++ {
			next, ok := m.Advance(s, in[k:k+1])
			if !ok {
				break
			}
			s = next
			if g.chance(0.1) {
				rest, found := cp.finish(s)
				if !found {
					t.Fatalf("no way to finish %q", in[:k+1])
				}
				if !parserAccepts(m, in[:k+1]+rest) {
					t.Fatalf("completion %q of %q is refused by the parser", rest, in[:k+1])
				}
				checked++
			}
		}
	}
	if checked < samples(1500) {
		t.Fatalf("only %d states checked", checked)
	}
}

// completion searches depth-first for bytes that complete a call, trying
// closing bytes first. It gives up after a budget of states, so a dead
// end in the machine shows as a failure.
func completion(m *Machine, s State) (string, bool) { return newCompleter(m).finish(s) }

// completer is completion remembering, across calls, the completion it
// found from every state on a successful path, so a test that checks
// thousands of states does not search the same tails again (the search
// is the same; only repeated work is skipped).
type completer struct {
	m     *Machine
	order []byte
	known map[State]string
}

func newCompleter(m *Machine) *completer {
	first := "\")}]1a ,.(:{"
	order := []byte(first)
	for c := 0; c < 256; c++ {
		if strings.IndexByte(first, byte(c)) < 0 {
			order = append(order, byte(c))
		}
	}
	return &completer{m: m, order: order, known: map[State]string{}}
}

func (cp *completer) finish(s State) (string, bool) {
	m := cp.m
	seen := map[State]bool{}
	budget := 200000
	var path []byte
	var states []State // states[i] is the state before path[i]
	var tail string    // a known completion of the last state reached
	var dfs func(s State) bool
	dfs = func(s State) bool {
		if m.Accepting(s) {
			return true
		}
		if rest, ok := cp.known[s]; ok {
			tail = rest
			return true
		}
		if seen[s] || budget == 0 || len(path) > 4*tools.MaxExpressionLen {
			return false
		}
		seen[s] = true
		budget--
		for _, c := range cp.order {
			next, ok := m.Advance(s, string([]byte{c}))
			if !ok {
				continue
			}
			path, states = append(path, c), append(states, s)
			if dfs(next) {
				return true
			}
			path, states = path[:len(path)-1], states[:len(states)-1]
		}
		return false
	}
	if !dfs(s) {
		return "", false
	}
	rest := string(path) + tail
	for i, st := range states {
		cp.known[st] = rest[i:]
	}
	return rest, true
}

func TestNewRejectsBadLibraries(t *testing.T) {
	t.Parallel()
	good := testSpecs()[0]
	bad := good
	bad.Params = []tools.Param{{Name: "e", Type: tools.TypeExpression}, {Name: "n", Type: tools.TypeNumber}}
	for _, tt := range []struct {
		specs []tools.Spec
		want  string
	}{
		{[]tools.Spec{good, good}, "listed twice"},
		{[]tools.Spec{bad}, "must be the last"},
		{[]tools.Spec{{Name: "-x", Family: "f", Description: "d"}}, "tool name"},
		{[]tools.Spec{{Name: "a b", Family: "f", Description: "d"}}, "tool name"},
	} {
		if _, err := New(tt.specs...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("got %v, want %q", err, tt.want)
		}
	}
	empty, err := New()
	if err != nil || empty.Accepts("Ping()") || len(empty.Names()) != 0 {
		t.Fatalf("empty library: %v", err)
	}
}

func TestFromRegistry(t *testing.T) {
	t.Parallel()
	var ts []tools.Tool
	for _, s := range testSpecs() {
		ts = append(ts, specTool{s})
	}
	r, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := FromRegistry(r)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(m.Names(), ","), strings.Join(r.Names(), ","); got != want {
		t.Fatalf("names %s, want %s", got, want)
	}
}
