package constrain

import (
	"fmt"
	"regexp/syntax"
	"sort"
	"unicode"
)

// Pattern-typed arguments (enum, datetime, date) are strings whose content
// must match Param.ContentPattern. The machine reads them byte by byte, so
// each pattern is compiled here, once per machine, from regexp/syntax's
// parse tree into a byte-level NFA (rune classes spelled out as UTF-8 byte
// sequences, case folding expanded with unicode.SimpleFold exactly as Go's
// regexp folds) and then eagerly determinised. States that cannot reach a
// match are cut, so a live DFA state always has a way to finish.

// maxDFAStates bounds determinisation; the built-in patterns need far fewer.
const maxDFAStates = 4096

// dfa is a determinised content pattern. Bytes map to classes that every
// state treats alike, which keeps the table small.
type dfa struct {
	classes [256]uint8
	nclass  int
	next    []int32 // state*nclass + class -> state, -1 dead
	accept  []bool
	start   int32
}

func (d *dfa) step(state int32, c byte) int32 {
	return d.next[int(state)*d.nclass+int(d.classes[c])]
}

func (d *dfa) size() int { return 256 + 4*len(d.next) + len(d.accept) }

// forbiddenInPattern reports the bytes a pattern-typed literal can never
// hold between its quotes: the quote ends it, a backslash is refused, and
// control characters and DEL are refused in any string.
func forbiddenInPattern(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c == 0x7f }

type nfaKind uint8

const (
	nfaByte  nfaKind = iota // one byte in [lo, hi], then out
	nfaSplit                // epsilon to out and out1
	nfaMatch
	nfaFail
)

type nfaState struct {
	kind      nfaKind
	lo, hi    byte
	out, out1 int32
}

type nfaBuilder struct{ states []nfaState }

func (b *nfaBuilder) add(s nfaState) int32 {
	b.states = append(b.states, s)
	return int32(len(b.states) - 1)
}

// build returns the start of a fragment for re that continues to next.
func (b *nfaBuilder) build(re *syntax.Regexp, next int32) (int32, error) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return next, nil
	case syntax.OpNoMatch:
		return b.add(nfaState{kind: nfaFail}), nil
	case syntax.OpLiteral:
		cur := next
		for i := len(re.Rune) - 1; i >= 0; i-- {
			r := re.Rune[i]
			var ranges []rune
			if re.Flags&syntax.FoldCase != 0 {
				ranges = foldRanges(r)
			} else {
				ranges = []rune{r, r}
			}
			cur = b.class(ranges, cur)
		}
		return cur, nil
	case syntax.OpCharClass:
		return b.class(re.Rune, next), nil
	case syntax.OpAnyChar:
		return b.class([]rune{0, unicode.MaxRune}, next), nil
	case syntax.OpAnyCharNotNL:
		return b.class([]rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}, next), nil
	case syntax.OpCapture:
		return b.build(re.Sub[0], next)
	case syntax.OpConcat:
		cur := next
		for i := len(re.Sub) - 1; i >= 0; i-- {
			var err error
			if cur, err = b.build(re.Sub[i], cur); err != nil {
				return 0, err
			}
		}
		return cur, nil
	case syntax.OpAlternate:
		starts := make([]int32, len(re.Sub))
		for i, sub := range re.Sub {
			var err error
			if starts[i], err = b.build(sub, next); err != nil {
				return 0, err
			}
		}
		return b.fanOut(starts), nil
	case syntax.OpQuest:
		body, err := b.build(re.Sub[0], next)
		if err != nil {
			return 0, err
		}
		return b.add(nfaState{kind: nfaSplit, out: body, out1: next}), nil
	case syntax.OpStar, syntax.OpPlus:
		loop := b.add(nfaState{kind: nfaSplit, out1: next})
		body, err := b.build(re.Sub[0], loop)
		if err != nil {
			return 0, err
		}
		b.states[loop].out = body
		if re.Op == syntax.OpPlus {
			return body, nil // the body once before the loop's choice
		}
		return loop, nil
	}
	return 0, fmt.Errorf("unsupported construct %s", re)
}

func (b *nfaBuilder) fanOut(starts []int32) int32 {
	if len(starts) == 0 {
		return b.add(nfaState{kind: nfaFail})
	}
	cur := starts[len(starts)-1]
	for i := len(starts) - 2; i >= 0; i-- {
		cur = b.add(nfaState{kind: nfaSplit, out: starts[i], out1: cur})
	}
	return cur
}

// class adds the UTF-8 encodings of a rune class (pairs lo, hi) before next.
func (b *nfaBuilder) class(ranges []rune, next int32) int32 {
	var starts []int32
	for i := 0; i+1 < len(ranges); i += 2 {
		utf8Sequences(ranges[i], ranges[i+1], func(seq []byteRange) {
			cur := next
			for k := len(seq) - 1; k >= 0; k-- {
				cur = b.add(nfaState{kind: nfaByte, lo: seq[k].lo, hi: seq[k].hi, out: cur})
			}
			starts = append(starts, cur)
		})
	}
	return b.fanOut(starts)
}

// compilePattern turns a content pattern into a DFA over the bytes a
// pattern-typed literal may hold.
func compilePattern(pattern string) (*dfa, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("content pattern %q: %w", pattern, err)
	}
	re = re.Simplify()
	b := &nfaBuilder{}
	match := b.add(nfaState{kind: nfaMatch})
	start, err := b.build(re, match)
	if err != nil {
		return nil, fmt.Errorf("content pattern %q: %w", pattern, err)
	}
	d, err := determinise(b.states, start)
	if err != nil {
		return nil, fmt.Errorf("content pattern %q: %w", pattern, err)
	}
	return d, nil
}

func determinise(states []nfaState, start int32) (*dfa, error) {
	// Byte classes: bytes that every transition range (and the forbidden
	// set) treats alike share a class.
	type span struct{ lo, hi byte }
	var spans []span
	seenSpan := map[span]bool{}
	for _, s := range states {
		if sp := (span{s.lo, s.hi}); s.kind == nfaByte && !seenSpan[sp] {
			seenSpan[sp] = true
			spans = append(spans, sp)
		}
	}
	d := &dfa{}
	var reps []byte // a representative byte of each class
	classOf := map[string]uint8{}
	for c := 0; c < 256; c++ {
		sig := make([]byte, 0, 1+len(spans)/8)
		if forbiddenInPattern(byte(c)) {
			sig = append(sig, 'F')
		} else {
			var bits byte
			for i, sp := range spans {
				if sp.lo <= byte(c) && byte(c) <= sp.hi {
					bits |= 1 << (i % 8)
				}
				if i%8 == 7 || i == len(spans)-1 {
					sig = append(sig, bits)
					bits = 0
				}
			}
		}
		id, ok := classOf[string(sig)]
		if !ok {
			if len(reps) == 256 {
				return nil, fmt.Errorf("too many byte classes")
			}
			id = uint8(len(reps))
			classOf[string(sig)] = id
			reps = append(reps, byte(c))
		}
		d.classes[c] = id
	}
	d.nclass = len(reps)

	mark := make([]int, len(states)) // generation stamps for closure
	gen := 0
	closure := func(seeds []int32) []int32 {
		gen++
		var out []int32
		stack := append([]int32(nil), seeds...)
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if mark[s] == gen {
				continue
			}
			mark[s] = gen
			switch states[s].kind {
			case nfaSplit:
				stack = append(stack, states[s].out1, states[s].out)
			case nfaByte, nfaMatch:
				out = append(out, s)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
		return out
	}
	key := func(set []int32) string {
		buf := make([]byte, 0, 4*len(set))
		for _, s := range set {
			buf = append(buf, byte(s), byte(s>>8), byte(s>>16), byte(s>>24))
		}
		return string(buf)
	}

	index := map[string]int32{}
	var sets [][]int32
	intern := func(set []int32) int32 {
		k := key(set)
		if id, ok := index[k]; ok {
			return id
		}
		id := int32(len(sets))
		index[k] = id
		sets = append(sets, set)
		return id
	}
	if len(states) == 0 {
		return nil, fmt.Errorf("empty pattern program")
	}
	intern(closure([]int32{start}))
	var next []int32
	var accept []bool
	for i := 0; i < len(sets); i++ {
		if len(sets) > maxDFAStates {
			return nil, fmt.Errorf("pattern needs more than %d states", maxDFAStates)
		}
		set := sets[i]
		isAccept := false
		for _, s := range set {
			if states[s].kind == nfaMatch {
				isAccept = true
			}
		}
		accept = append(accept, isAccept)
		for _, c := range reps {
			if forbiddenInPattern(c) {
				next = append(next, -1)
				continue
			}
			var seeds []int32
			for _, s := range set {
				if st := states[s]; st.kind == nfaByte && st.lo <= c && c <= st.hi {
					seeds = append(seeds, st.out)
				}
			}
			if len(seeds) == 0 {
				next = append(next, -1)
				continue
			}
			next = append(next, intern(closure(seeds)))
		}
	}
	d.next, d.accept = next, accept
	d.start = 0
	if !d.prune() {
		return nil, fmt.Errorf("pattern matches nothing")
	}
	return d, nil
}

// prune sends every transition into a state that cannot reach a match to
// the dead state, so that a live state always has a way to finish. It
// reports whether the start state is live.
func (d *dfa) prune() bool {
	n := len(d.accept)
	live := make([]bool, n)
	copy(live, d.accept)
	for changed := true; changed; {
		changed = false
		for s := 0; s < n; s++ {
			if live[s] {
				continue
			}
			for c := 0; c < d.nclass; c++ {
				if t := d.next[s*d.nclass+c]; t >= 0 && live[t] {
					live[s] = true
					changed = true
					break
				}
			}
		}
	}
	for i, t := range d.next {
		if t >= 0 && !live[t] {
			d.next[i] = -1
		}
	}
	return live[d.start]
}
