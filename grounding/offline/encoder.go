package offline

import (
	"context"
	"math"
	"strings"
)

// The lexical encoder. A text becomes a bag of weighted features, hashed
// (with a sign bit, so collisions cancel on average instead of adding up)
// into Dimensions floats:
//
//   - each content word's Porter stem (stem.go), weight 1; stop words
//     (text.go) are dropped, and so are question words, which the question
//     form below stands for;
//   - a word's sense where a word has two that matter: the clock's "time"
//     ("what time is it") is not "vacation time", the calendar's "date"
//     ("today's date") is not a "due date" (senses.go); the other sense is
//     a word of its own;
//   - each concept of the word in the built-in thesaurus (lexicon.go),
//     weight conceptWeight: "foggy" and a description's "weather" share the
//     weather concept;
//   - the form of the question: what kind of answer it asks for — a
//     person (who), a date (when, what year), a place (where), a clock time
//     (what time), an amount (how many, how old) or a definition (define,
//     what does X mean) — weight askWeight. A description's words for what
//     its tool answers ("facts about people", "numbers") raise the same
//     features through the thesaurus;
//   - askFact, weight factWeight, for a question about the world rather
//     than about the user or the assistant: a wh-question (or a request to
//     define a word) with no first- or second-person pronoun once a request
//     frame ("can you tell me") is set aside, and no request for an opinion
//     ("the best pizza"). Looking things up answers such questions; "when
//     is my next payday" is not one;
//   - one "personal" feature, weight personalWeight, per first- or
//     second-person pronoun or "this"/"these": a request about the user's
//     or the assistant's own affairs ("my account", "your name", "this
//     song") shares it with no tool description, so it dilutes the query's
//     similarity to every tool;
//   - one "number" feature, weight numberWeight, per number in digits or
//     words (which number a query has says nothing about the tool); a
//     description's "numbers" is the same feature;
//   - the character trigrams of each content word of four letters or more,
//     with word boundaries, sharing gramWeight per word, so typos and
//     unknown inflections ("subract", "temps") still overlap.
//
// A feature's weight is summed over its occurrences and then damped to
// 1 + log(sum), as in TF-IDF's sublinear term frequency; there is no IDF,
// because the vector of a text must not depend on what else was embedded
// (the cache stores vectors per text). Vectors are deterministic: no
// randomness, no map iteration order in the arithmetic.
//
// The weights are global constants, chosen while measuring the engine on
// the dev file; docs/bench/grounding.md says how, and what that does to the
// figures.
const (
	// Dimensions is the length of the encoder's vectors.
	Dimensions      = 4096
	conceptWeight   = 1.5
	askWeight       = 2.0
	factWeight      = 4.0
	personalWeight  = 2.5
	numberWeight    = 1.0
	gramWeight      = 0.25
	numberFeature   = "#number"
	personalFeature = "#personal"
)

// EncoderModel names the encoder in the embedding cache; bump it whenever
// the features change, so stale vectors are never compared with new ones.
const EncoderModel = "gear-offline-lexical-v2"

// Embed encodes each text.
func (e *Engine) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = e.vector(t)
	}
	return out, nil
}

// features returns a text's weighted features in first-seen order.
func (e *Engine) features(text string) ([]string, []float64) {
	var names []string
	index := map[string]int{}
	var counts []float64
	add := func(f string, w float64) {
		if i, ok := index[f]; ok {
			counts[i] += w
			return
		}
		index[f] = len(names)
		names = append(names, f)
		counts = append(counts, w)
	}
	toks := tokenize(text)
	if form := questionForm(text, toks); form != "" {
		add("c:"+form, weightOf(form))
	}
	if isFactQuestion(text, toks) {
		add("c:"+askFact, weightOf(askFact))
	}
	for i, tok := range toks {
		if (tok.text == "times" || tok.text == "x") && i > 0 && i+1 < len(toks) && isNumeric(toks[i-1].text) && isNumeric(toks[i+1].text) {
			// "13 times 57" is multiplication, not the clock.
			add("c:"+conceptMath, conceptWeight)
			continue
		}
		for _, w := range expandContraction(tok.text) {
			if isNumeral(w) || isNumberWord(w) || w == "number" || w == "numbers" {
				// A description's "numbers" is what a query's digits are.
				add(numberFeature, numberWeight)
				continue
			}
			if isPersonal(w) {
				add(personalFeature, personalWeight)
				continue
			}
			if e.lex.stop[w] || isQuestionWord(w) {
				continue
			}
			s := stem(w)
			if s == "time" && !clockSense(toks, i) || (s == "date" || s == "dai") && !calendarSense(toks, i) {
				// "vacation time", "next time", "due date", "pay day": not
				// the clock or the calendar, another word.
				add("w:"+s+"~", 1)
				continue
			}
			add("w:"+s, 1)
			for _, c := range e.lex.conceptsOf(w) {
				add("c:"+c, weightOf(c))
			}
			if len(w) >= 4 {
				grams := trigrams(w)
				for _, g := range grams {
					add("g:"+g, gramWeight/float64(len(grams)))
				}
			}
		}
	}
	for i, c := range counts {
		if c > 1 {
			counts[i] = 1 + math.Log(c)
		}
	}
	return names, counts
}

// vector places the features: the few fixed ones (concepts, question
// forms, "personal", "number") in dimensions of their own, so that no word
// can collide with them; words and trigrams hashed into the rest.
func (e *Engine) vector(text string) []float32 {
	v := make([]float32, Dimensions)
	names, weights := e.features(text)
	free := uint32(Dimensions - len(e.lex.slots))
	for i, f := range names {
		if slot, ok := e.lex.slots[f]; ok {
			v[slot] += float32(weights[i])
			continue
		}
		h := fnv1a(f)
		idx := uint32(len(e.lex.slots)) + h%free
		if h&(1<<31) != 0 {
			v[idx] -= float32(weights[i])
		} else {
			v[idx] += float32(weights[i])
		}
	}
	return v
}

func trigrams(w string) []string {
	s := "^" + w + "$"
	grams := make([]string, 0, len(s)-2)
	for i := 0; i+3 <= len(s); i++ {
		grams = append(grams, s[i:i+3])
	}
	return grams
}

func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// isNumeral reports whether w is written in digits ("42", "3.5", "1,134").
func isNumeral(w string) bool {
	if w == "" {
		return false
	}
	digits := 0
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' || c == ',':
		default:
			return false
		}
	}
	return digits > 0 && !strings.HasPrefix(w, ".") && !strings.HasSuffix(w, ",")
}
