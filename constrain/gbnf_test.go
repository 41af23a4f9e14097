package constrain

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A small GBNF reader and recogniser, written from llama.cpp's grammar
// guide (grammars/README.md), to check the exported grammar the way
// llama.cpp will read it: rules over code points, strings, classes with
// ranges and negation, grouping, alternation, *, +, ?, {m}, {m,}, {m,n}.

type gbnfNode struct {
	kind     byte // 'l' string, 'c' class, 's' sequence, 'a' alternatives, 'r' repeat, 'n' rule
	runes    []rune
	ranges   []rune
	neg      bool
	kids     []*gbnfNode
	min, max int
	name     string
}

type gbnfGrammar map[string]*gbnfNode

func parseGBNF(src string) (gbnfGrammar, error) {
	g := gbnfGrammar{}
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, body, ok := strings.Cut(line, " ::= ")
		if !ok {
			return nil, fmt.Errorf("line %d: no ::=", n+1)
		}
		for _, r := range name {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				return nil, fmt.Errorf("line %d: rule name %q is not a dashed lowercase word", n+1, name)
			}
		}
		p := &gbnfParser{s: body}
		node, err := p.alternatives()
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		if p.i != len(p.s) {
			return nil, fmt.Errorf("line %d: trailing %q", n+1, p.s[p.i:])
		}
		g[name] = node
	}
	if g["root"] == nil {
		return nil, fmt.Errorf("no root rule")
	}
	return g, nil
}

type gbnfParser struct {
	s string
	i int
}

func (p *gbnfParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *gbnfParser) alternatives() (*gbnfNode, error) {
	var alts []*gbnfNode
	for {
		s, err := p.sequence()
		if err != nil {
			return nil, err
		}
		alts = append(alts, s)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		return &gbnfNode{kind: 'a', kids: alts}, nil
	}
}

func (p *gbnfParser) sequence() (*gbnfNode, error) {
	var items []*gbnfNode
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] == '|' || p.s[p.i] == ')' {
			return &gbnfNode{kind: 's', kids: items}, nil
		}
		item, err := p.primary()
		if err != nil {
			return nil, err
		}
		item, err = p.postfix(item)
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
}

func (p *gbnfParser) postfix(item *gbnfNode) (*gbnfNode, error) {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '*':
			item = &gbnfNode{kind: 'r', kids: []*gbnfNode{item}, min: 0, max: -1}
		case '+':
			item = &gbnfNode{kind: 'r', kids: []*gbnfNode{item}, min: 1, max: -1}
		case '?':
			item = &gbnfNode{kind: 'r', kids: []*gbnfNode{item}, min: 0, max: 1}
		case '{':
			end := strings.IndexByte(p.s[p.i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("unclosed {")
			}
			spec := p.s[p.i+1 : p.i+end]
			lo, hi, comma := strings.Cut(spec, ",")
			min, err := strconv.Atoi(lo)
			if err != nil {
				return nil, err
			}
			max := min
			if comma {
				max = -1
				if hi != "" {
					if max, err = strconv.Atoi(hi); err != nil {
						return nil, err
					}
				}
			}
			item = &gbnfNode{kind: 'r', kids: []*gbnfNode{item}, min: min, max: max}
			p.i += end
		default:
			return item, nil
		}
		p.i++
	}
	return item, nil
}

func (p *gbnfParser) primary() (*gbnfNode, error) {
	switch c := p.s[p.i]; {
	case c == '"':
		p.i++
		var runes []rune
		for p.i < len(p.s) && p.s[p.i] != '"' {
			r, err := p.char()
			if err != nil {
				return nil, err
			}
			runes = append(runes, r)
		}
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("unterminated string")
		}
		p.i++
		return &gbnfNode{kind: 'l', runes: runes}, nil
	case c == '[':
		p.i++
		n := &gbnfNode{kind: 'c'}
		if p.i < len(p.s) && p.s[p.i] == '^' {
			n.neg = true
			p.i++
		}
		for p.i < len(p.s) && p.s[p.i] != ']' {
			lo, err := p.char()
			if err != nil {
				return nil, err
			}
			hi := lo
			if p.i+1 < len(p.s) && p.s[p.i] == '-' && p.s[p.i+1] != ']' {
				p.i++
				if hi, err = p.char(); err != nil {
					return nil, err
				}
			}
			n.ranges = append(n.ranges, lo, hi)
		}
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("unterminated class")
		}
		p.i++
		return n, nil
	case c == '(':
		p.i++
		n, err := p.alternatives()
		if err != nil {
			return nil, err
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return nil, fmt.Errorf("unclosed (")
		}
		p.i++
		return n, nil
	case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-':
		j := p.i
		for j < len(p.s) && (p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] == '-') {
			j++
		}
		n := &gbnfNode{kind: 'n', name: p.s[p.i:j]}
		p.i = j
		return n, nil
	}
	return nil, fmt.Errorf("unexpected %q", p.s[p.i:])
}

// char reads one character of a string or class, with llama.cpp's escapes.
func (p *gbnfParser) char() (rune, error) {
	if p.s[p.i] != '\\' {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		p.i += n
		return r, nil
	}
	if p.i+1 >= len(p.s) {
		return 0, fmt.Errorf("dangling escape")
	}
	e := p.s[p.i+1]
	p.i += 2
	hex := func(n int) (rune, error) {
		if p.i+n > len(p.s) {
			return 0, fmt.Errorf("short \\%c escape", e)
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
		p.i += n
		return rune(v), err
	}
	switch e {
	case 'x':
		return hex(2)
	case 'u':
		return hex(4)
	case 'U':
		return hex(8)
	case 't':
		return '\t', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case '\\', '"', '[', ']':
		return rune(e), nil
	}
	return 0, fmt.Errorf("unknown escape \\%c", e)
}

// gbnfRecognizer says whether the root rule matches a whole text.
type gbnfRecognizer struct {
	g    gbnfGrammar
	in   []rune
	memo map[string][]int
}

func (g gbnfGrammar) accepts(text string) bool {
	r := &gbnfRecognizer{g: g, in: []rune(text), memo: map[string][]int{}}
	for _, end := range r.rule("root", 0) {
		if end == len(r.in) {
			return true
		}
	}
	return false
}

func (r *gbnfRecognizer) rule(name string, pos int) []int {
	key := name + "@" + strconv.Itoa(pos)
	if ends, ok := r.memo[key]; ok {
		return ends
	}
	r.memo[key] = nil // the grammar has no left recursion
	ends := r.match(r.g[name], pos)
	r.memo[key] = ends
	return ends
}

// match gives every position where n, started at pos, can end.
func (r *gbnfRecognizer) match(n *gbnfNode, pos int) []int {
	switch n.kind {
	case 'l':
		if pos+len(n.runes) > len(r.in) {
			return nil
		}
		for i, c := range n.runes {
			if r.in[pos+i] != c {
				return nil
			}
		}
		return []int{pos + len(n.runes)}
	case 'c':
		if pos >= len(r.in) {
			return nil
		}
		c := r.in[pos]
		in := false
		for i := 0; i < len(n.ranges); i += 2 {
			if c >= n.ranges[i] && c <= n.ranges[i+1] {
				in = true
			}
		}
		if in != n.neg {
			return []int{pos + 1}
		}
		return nil
	case 'n':
		return r.rule(n.name, pos)
	case 'a':
		set := map[int]bool{}
		for _, k := range n.kids {
			for _, e := range r.match(k, pos) {
				set[e] = true
			}
		}
		return sortedSet(set)
	case 's':
		cur := []int{pos}
		for _, k := range n.kids {
			set := map[int]bool{}
			for _, p := range cur {
				for _, e := range r.match(k, p) {
					set[e] = true
				}
			}
			cur = sortedSet(set)
			if len(cur) == 0 {
				return nil
			}
		}
		return cur
	case 'r':
		out := map[int]bool{}
		if n.min == 0 {
			out[pos] = true
		}
		cur := []int{pos}
		done := map[int]bool{}
		for count := 1; (n.max < 0 || count <= n.max) && len(cur) > 0; count++ {
			set := map[int]bool{}
			for _, p := range cur {
				for _, e := range r.match(n.kids[0], p) {
					if e == p && count > n.min {
						continue // an empty match adds nothing once the minimum is met
					}
					if count >= n.min && done[e] {
						continue
					}
					set[e] = true
				}
			}
			cur = sortedSet(set)
			if count >= n.min {
				for _, e := range cur {
					out[e] = true
					done[e] = true
				}
			}
		}
		return sortedSet(out)
	}
	return nil
}

func sortedSet(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
