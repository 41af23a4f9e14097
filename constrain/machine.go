// Package constrain is gear's ToolDec machine (“Don't Fine-Tune, Decode: Syntax Error-Free Tool Use via
// Constrained Decoding”, Zhang, Chen, Li and Wang, arXiv:2310.07075): one
// finite-state machine for the whole tool library, built from the tools'
// specs, that accepts exactly the calls tools.Parse accepts — a trie over
// the tool names, then one sub-machine per parameter type, chained with the
// separators and white space of the canonical syntax, Name(arg, "s", 3.5),
// and of the JSON form, {"tool": "Name", "args": {...}}.
//
// The machine answers, from any point of a call: which bytes may come next
// (Allowed), whether a model token may come next (Advance, Filter), whether
// the call is complete (Accepting), what the forced continuation is
// (Complete). Decode runs client-side ToolDec over a source of candidate
// tokens; Validate checks a finished call; Repair corrects the mistakes it
// can without inventing a value; GBNF, Regex and JSONSchema export the same
// grammar for server-side guided decoding.
//
// States are small comparable values with no pointers, so a decoder can try
// candidates from one state without undoing anything; the Machine is never
// changed after New and may be shared by goroutines. Adding a tool to the
// library needs no code here: the machine is rebuilt from the new specs.
package constrain

import (
	"errors"
	"fmt"
	"sort"

	"github.com/gear-chat/gear/tools"
)

// Machine is the ToolDec machine of one tool library. It is immutable.
type Machine struct {
	tools  []toolInfo
	byName map[string]int
	nodes  []trieNode
	edges  []trieEdge
	dfas   []*dfa
	checks *tools.ArgsChecker // input schemas, compiled on first use
}

// State is a point in a call being read: a value, cheap to copy and to
// compare. The zero State is the start of a call.
type State struct {
	stack uint64 // expression: bit i set when parenthesis i is a function call's
	node  uint32 // trie node while reading a tool name, the tool's index after it
	aux   uint32 // value sub-machine: DFA state, \u digits, UTF-8 expectation, identifier
	count uint16 // runes of a string, bytes of a number or expression, offset in a JSON key
	param uint16 // the parameter being read or just read
	phase phase
	sub   uint8 // step inside the value (or which JSON key)
	depth uint8 // expression nesting
	flags uint8
}

type valueKind uint8

const (
	kindNumber valueKind = iota
	kindInteger
	kindString  // string, place: any JSON string, non-empty, rune-bounded
	kindPattern // enum, datetime, date: content matches a pattern, no escapes
	kindExpression
	kindWord  // boolean: one of a few bare literal words
	kindJSON  // any JSON value, checked against its schema after decoding
	kindRange // a bounded integer: its literal read by a DFA of the range
)

type paramInfo struct {
	name    string
	typ     tools.ParamType
	kind    valueKind
	bound   uint16          // rune bound of a kindString parameter
	dfa     int32           // Machine.dfas index of a kindPattern parameter
	pattern string          // its content pattern
	key     string          // the JSON form's key: the name between quotes
	words   []string        // the literals of a kindWord parameter
	items   tools.ParamType // a kindJSON array parameter's item type, or ""
}

type toolInfo struct {
	spec     tools.Spec
	params   []paramInfo
	required int
	sorted   []uint16 // parameter indices by name, for keyword ranges
}

// trieNode is a node of the tool-name trie; its edges are sorted by byte.
type trieNode struct {
	first uint32
	n     uint32
	tool  int32 // the tool whose name ends here, or -1
}

type trieEdge struct {
	b     byte
	child uint32
}

// SpecError is a tool New cannot take: an invalid spec, a duplicate name,
// a content pattern beyond what the machine compiles. NewLenient builds
// the machine without such tools.
type SpecError struct {
	Tool string
	Err  error
}

func (e *SpecError) Error() string { return "constrain: " + e.Err.Error() }
func (e *SpecError) Unwrap() error { return e.Err }

// NewLenient builds the machine for the tools of specs it can take and
// reports the others (a tool from an MCP server with a pathological
// pattern must not take the whole library down). The caller removes the
// reported tools from its library, so that what the machine knows and
// what runs stay the same.
func NewLenient(specs ...tools.Spec) (*Machine, []*SpecError) {
	var skipped []*SpecError
	seen := map[string]bool{}
	unique := make([]tools.Spec, 0, len(specs))
	for _, s := range specs {
		if seen[s.Name] {
			skipped = append(skipped, &SpecError{Tool: s.Name, Err: fmt.Errorf("tool %s listed twice", s.Name)})
			continue
		}
		seen[s.Name] = true
		unique = append(unique, s)
	}
	specs = unique
	for {
		m, err := New(specs...)
		var se *SpecError
		if err == nil || !errors.As(err, &se) {
			if err != nil { // not a tool's fault; New fails only per tool
				return nil, append(skipped, &SpecError{Err: err})
			}
			return m, skipped
		}
		skipped = append(skipped, se)
		kept := specs[:0:0]
		for _, s := range specs {
			if s.Name != se.Tool {
				kept = append(kept, s)
			}
		}
		if len(kept) == len(specs) {
			return nil, skipped
		}
		specs = kept
	}
}

// New builds the machine for a library. Specs are checked as the registry
// checks them; names must be unique. A tool it cannot take is a
// *SpecError naming it.
func New(specs ...tools.Spec) (*Machine, error) {
	m := &Machine{byName: make(map[string]int, len(specs))}
	patterns := map[string]int32{}
	for _, s := range specs {
		if err := s.Validate(); err != nil {
			return nil, &SpecError{Tool: s.Name, Err: err}
		}
		if _, dup := m.byName[s.Name]; dup {
			return nil, &SpecError{Tool: s.Name, Err: fmt.Errorf("tool %s listed twice", s.Name)}
		}
		if len(s.Params) > 0xFFFF {
			return nil, &SpecError{Tool: s.Name, Err: fmt.Errorf("tool %s has too many parameters", s.Name)}
		}
		info := toolInfo{spec: s, required: s.RequiredParams()}
		for _, p := range s.Params {
			pi := paramInfo{name: p.Name, typ: p.Type, key: `"` + p.Name + `"`, dfa: -1}
			switch p.Type {
			case tools.TypeNumber:
				pi.kind = kindNumber
			case tools.TypeInteger:
				pi.kind = kindInteger
				if p.Bounded() {
					lo, hi := p.IntegerRange()
					pattern := tools.IntegerRangePattern(lo, hi)
					id, err := m.patternDFA(patterns, pattern)
					if err != nil {
						return nil, &SpecError{Tool: s.Name, Err: fmt.Errorf("tool %s, parameter %s: %w", s.Name, p.Name, err)}
					}
					pi.kind, pi.dfa, pi.pattern = kindRange, id, pattern
				}
			case tools.TypeExpression:
				pi.kind = kindExpression
			case tools.TypeBoolean:
				pi.kind, pi.words = kindWord, booleanWords
			case tools.TypeJSON:
				pi.kind, pi.items = kindJSON, p.Items
			default:
				if pattern, ok := p.ContentPattern(); ok {
					pi.kind = kindPattern
					id, err := m.patternDFA(patterns, pattern)
					if err != nil {
						return nil, &SpecError{Tool: s.Name, Err: fmt.Errorf("tool %s, parameter %s: %w", s.Name, p.Name, err)}
					}
					pi.dfa, pi.pattern = id, pattern
				} else {
					pi.kind = kindString
					pi.bound = uint16(p.StringBound())
				}
			}
			info.params = append(info.params, pi)
		}
		sortParams(&info)
		m.byName[s.Name] = len(m.tools)
		m.tools = append(m.tools, info)
	}
	m.buildTrie()
	m.checks = tools.NewArgsChecker(specs)
	return m, nil
}

// patternDFA compiles a pattern once per machine.
func (m *Machine) patternDFA(patterns map[string]int32, pattern string) (int32, error) {
	if id, seen := patterns[pattern]; seen {
		return id, nil
	}
	d, err := compilePattern(pattern)
	if err != nil {
		return 0, err
	}
	id := int32(len(m.dfas))
	m.dfas = append(m.dfas, d)
	patterns[pattern] = id
	return id, nil
}

// FromRegistry builds the machine for a registry's library.
func FromRegistry(r *tools.Registry) (*Machine, error) { return New(r.Specs()...) }

func (m *Machine) buildTrie() {
	idx := make([]int, len(m.tools))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return m.tools[idx[a]].spec.Name < m.tools[idx[b]].spec.Name })
	names := make([]string, len(idx))
	for i, t := range idx {
		names[i] = m.tools[t].spec.Name
	}
	m.trieNode(names, idx, 0)
}

// trieNode adds the node for sorted names sharing their first depth bytes.
func (m *Machine) trieNode(names []string, idx []int, depth int) uint32 {
	id := uint32(len(m.nodes))
	m.nodes = append(m.nodes, trieNode{tool: -1})
	i := 0
	if len(names) > 0 && len(names[0]) == depth {
		m.nodes[id].tool = int32(idx[0])
		i = 1
	}
	type group struct {
		b      byte
		lo, hi int
	}
	var groups []group
	for i < len(names) {
		j := i + 1
		for j < len(names) && names[j][depth] == names[i][depth] {
			j++
		}
		groups = append(groups, group{names[i][depth], i, j})
		i = j
	}
	first := uint32(len(m.edges))
	m.edges = append(m.edges, make([]trieEdge, len(groups))...)
	m.nodes[id].first, m.nodes[id].n = first, uint32(len(groups))
	for k, g := range groups {
		child := m.trieNode(names[g.lo:g.hi], idx[g.lo:g.hi], depth+1)
		m.edges[first+uint32(k)] = trieEdge{g.b, child}
	}
	return id
}

func (m *Machine) child(node uint32, c byte) (uint32, bool) {
	n := m.nodes[node]
	edges := m.edges[n.first : n.first+n.n]
	lo, hi := 0, len(edges)
	for lo < hi {
		mid := (lo + hi) / 2
		if edges[mid].b < c {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(edges) && edges[lo].b == c {
		return edges[lo].child, true
	}
	return 0, false
}

// Start is the state before the first byte of a call.
func (m *Machine) Start() State { return State{} }

// Advance feeds text (a model token may be several characters) to the
// machine from s. It returns the new state and true, or s and false when
// the text cannot continue any call from s; s itself is never changed.
func (m *Machine) Advance(s State, text string) (State, bool) {
	t := s
	for i := 0; i < len(text); i++ {
		if !m.step(&t, text[i]) {
			return s, false
		}
	}
	return t, true
}

// Accepts reports whether text is a complete call the machine accepts.
func (m *Machine) Accepts(text string) bool {
	s, ok := m.Advance(m.Start(), text)
	return ok && m.Accepting(s)
}

// Accepting reports whether the text read so far is a complete call. Only
// white space may follow it.
func (m *Machine) Accepting(s State) bool { return s.phase == phDone }

// Allowed is the set of bytes that may come next. Every byte in it leads to
// a state from which the call can still be completed.
func (m *Machine) Allowed(s State) ByteSet {
	var set ByteSet
	for c := 0; c < 256; c++ {
		t := s
		if m.step(&t, byte(c)) {
			set.add(byte(c))
		}
	}
	return set
}

// Tool returns the name of the tool being called, once its name is read.
func (m *Machine) Tool(s State) (string, bool) {
	switch s.phase {
	case phStart, phName, phJName:
		return "", false
	case phJKey, phJColon, phJAfterColon:
		if s.sub == keyTool {
			return "", false
		}
	}
	return m.tools[s.node].spec.Name, true
}

// Names returns the library's tool names, sorted.
func (m *Machine) Names() []string {
	out := make([]string, 0, len(m.tools))
	m.walkNames(0, nil, func(name []byte, _ int) { out = append(out, string(name)) })
	return out
}

// walkNames visits the tool names below node, in byte order.
func (m *Machine) walkNames(node uint32, prefix []byte, visit func(name []byte, tool int)) {
	n := m.nodes[node]
	if n.tool >= 0 {
		visit(prefix, int(n.tool))
	}
	for _, e := range m.edges[n.first : n.first+n.n] {
		m.walkNames(e.child, append(prefix, e.b), visit)
	}
}

// Size is an estimate in bytes of the memory the machine's tables hold
// (trie, parameter tables, pattern DFAs), not counting the specs.
func (m *Machine) Size() int {
	n := len(m.nodes)*12 + len(m.edges)*8
	for _, t := range m.tools {
		n += 64 + len(t.params)*48
		for _, p := range t.params {
			n += len(p.key) + len(p.name)
		}
	}
	for _, d := range m.dfas {
		n += d.size()
	}
	return n
}

func (m *Machine) lookup(name string) (tools.Spec, bool) {
	i, ok := m.byName[name]
	if !ok {
		return tools.Spec{}, false
	}
	return m.tools[i].spec, true
}
