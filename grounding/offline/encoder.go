package offline

import (
	"context"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gear-chat/gear/tools"
)

// The lexical encoder. A text becomes a bag of weighted features, hashed
// (with a sign bit, so collisions cancel on average instead of adding up)
// into Dimensions floats:
//
//   - each content word's Porter stem (stem.go), weight 1; stop words
//     (text.go) are dropped, and so are question words, which the question
//     form below stands for;
//   - a word's sense where a word has two that matter: the clock's "time"
//     ("what time is it") is not "vacation time" nor the time of an event
//     ("what time does the pharmacy close"), the calendar's "date"
//     ("today's date") is not a "due date" (senses.go), the weather's
//     "rain" is not a "rain jacket" nor the rain of "under the weather"
//     (weather.go), and a unit of a conversion ("22 degrees Celsius in
//     Fahrenheit") is no weather word; the other sense is a word of its
//     own;
//   - each concept of the word in the built-in thesaurus (lexicon.go),
//     weight conceptWeight: "foggy" and a description's "weather" share the
//     weather concept; a few weather and clock words of German, French,
//     Spanish, Italian and Portuguese are in it too (multilingual.go);
//   - the form of the question: what kind of answer it asks for — a
//     person (who), a date (when, what year), a place (where), a clock time
//     (what time), an amount (how many, how old) or a definition (define,
//     what does X mean) — weight askWeight. A description's words for what
//     its tool answers ("facts about people", "numbers") raise the same
//     features through the thesaurus. A question about the clock or the
//     calendar that no word names as one ("is it lunchtime in Rome yet",
//     "wie spät ist es"; clock.go), a weather question in another language
//     ("quel temps fait-il"), and arithmetic written out in ordinary words
//     ("a third of 1,200") raise the concept of their subject;
//   - askFact, weight factWeight, for a question about the world rather
//     than about the user or the assistant (reference.go): a wh-question,
//     a request to be told about something ("tell me about the Aztec
//     empire", "explain inflation") or a quiz clue ("This Polish-born
//     composer wrote the Minute Waltz."), with no first- or second-person
//     pronoun in it once a request frame ("can you tell me") is set aside,
//     no request for an opinion ("the best pizza"), and no context about
//     the user's own affairs. Looking things up answers such questions;
//     "when is my next payday" is not one;
//   - one "personal" feature, weight personalWeight, per first- or
//     second-person pronoun or "this"/"these": a request about the user's
//     or the assistant's own affairs ("my account", "your name", "this
//     song") shares it with no tool description, so it dilutes the query's
//     similarity to every tool ("our" before "planet" or "solar system" is
//     everyone's, not personal); a word of the user's dealings with a
//     business or a service ("hotel prices", "the wifi password", "the
//     drive from Leeds to York"; reference.go) counts the same;
//   - one "command" feature, weight commandWeight, for a request for an
//     action ("play Stormy Weather", "buy a rain jacket", "dim the lights
//     to 30 percent"; frames.go), which no look-up tool answers; in it
//     the words of the tools' subjects name a song, a product or a
//     setting, so they count in their other sense;
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
// the dev file; BENCHMARKS.md (Grounding) says how, and what that does to the
// figures. commandWeight is personalWeight's, for the same reason: both
// mark a request that no tool describes.
const (
	// Dimensions is the length of the encoder's vectors.
	Dimensions = 4096
	// reservedSlots are the dimensions kept for the fixed features
	// (concepts, question forms, "personal", "number"), whatever the
	// library: a library with more features than this shifts the words.
	reservedSlots = 128
	conceptWeight = 1.5
	// cueWeight is a subject's phrase that asks for it ("how do you say",
	// "into Japanese"): a whole phrase is surer than a word of the
	// subject.
	cueWeight       = 3.0
	askWeight       = 2.0
	factWeight      = 4.0
	personalWeight  = 2.5
	numberWeight    = 1.0
	gramWeight      = 0.25
	commandWeight   = 2.5
	numberFeature   = "#number"
	personalFeature = "#personal"
	commandFeature  = "#command"
)

// EncoderModel names the encoder in the embedding cache; bump it whenever
// the features change, so stale vectors are never compared with new ones.
// An engine's vectors also depend on its library's hints (the subjects a
// word belongs to, the dimensions they take), so the name an engine gives
// the cache (Engine.Model) adds a digest of them.
const EncoderModel = "gear-offline-lexical-v4"

// IsEncoderModel reports whether a cache model name is the offline
// encoder's, over any library.
func IsEncoderModel(model string) bool {
	return model == EncoderModel || strings.HasPrefix(model, EncoderModel+"@")
}

// Model is the engine's encoder's name in the embedding cache: EncoderModel
// and a digest of the lexicon its library's hints give it.
func (e *Engine) Model() string { return EncoderModel + "@" + e.lex.digest }

// Embed encodes each text.
func (e *Engine) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) >= parallelEmbedAt {
		return e.embedParallel(ctx, texts)
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(t) > MaxQueryBytes {
			// A long text (a tool's description, say) is embedded whole;
			// only a query's analysis is cut at MaxQueryBytes.
			out[i] = e.vector(e.analyze(t))
			continue
		}
		out[i] = e.vector(e.analysisOf(t))
	}
	return out, nil
}

// parallelEmbedAt is the batch size from which Embed spreads the texts
// over the processors: indexing a library (Seal-Tools' 4,076
// descriptions) is the only large batch, and its texts are independent.
const parallelEmbedAt = 64

// embedParallel encodes a large batch on every processor. The texts are
// a library's, analysed once each: they bypass the memo of queries
// (analysisOf), which holds the few queries whose analysis every tool's
// call reads at once.
func (e *Engine) embedParallel(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	workers := min(runtime.GOMAXPROCS(0), len(texts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(texts) || ctx.Err() != nil {
					return
				}
				// As Embed: a text is analysed whole, however long.
				out[i] = e.vector(e.analyze(texts[i]))
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// features returns a text's weighted features in first-seen order.
func (e *Engine) features(a *analysis) ([]string, []float64) {
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
	text, toks := a.query, a.toks
	form := e.lex.questionForm(text, toks)
	// shape adds the subject that answers a shape of answer, when a tool
	// has one.
	shape := func(s tools.Answer) {
		if c := e.lex.concept(s); c != "" {
			add("c:"+c, conceptWeight)
		}
	}
	switch form {
	case "":
	case formTime:
		shape(tools.AnswerTime)
	case formDate:
		shape(tools.AnswerDate)
	default:
		add("c:"+form, weightOf(form))
	}
	// A question about the clock, the calendar or the weather that none
	// of its words names as one ("is it lunchtime in Rome yet", "quel
	// temps fait-il à Marseille") has the form all the same.
	switch {
	case a.kind == kindTime && form != formTime:
		shape(tools.AnswerTime)
	case a.kind == kindDate && form != formDate:
		shape(tools.AnswerDate)
	case a.foreignWeather:
		shape(tools.AnswerWeather)
	case a.expr != "" && a.explicit:
		// Arithmetic written out in words of no arithmetic vocabulary: "a
		// third of 1,200", "how many seconds are there in a week".
		shape(tools.AnswerNumber)
	}
	if a.fact {
		add("c:"+askFact, weightOf(askFact))
	}
	// A phrase that asks for a subject's answer ("how do you say") asks
	// a tool for it: the request is no action that no tool answers.
	cued := false
	for _, sc := range e.lex.phraseCues {
		if sc.in(a.lower) || renderedInTarget(a.query, a.toks, sc.targets) {
			add("c:"+sc.name, cueWeight)
			cued = true
		}
	}
	if a.command && !cued {
		add(commandFeature, commandWeight)
	}
	for i, tok := range toks {
		if multiplies(tok.text) && i > 0 && i+1 < len(toks) && isNumeric(toks[i-1].text) && isNumeric(toks[i+1].text) {
			// "13 times 57" is multiplication, not the clock.
			shape(tools.AnswerNumber)
			continue
		}
		for _, w := range expandContraction(tok.text) {
			if isNumeral(w) || isNumberWord(w) || w == "number" || w == "numbers" {
				// A description's "numbers" is what a query's digits are.
				add(numberFeature, numberWeight)
				continue
			}
			if isPersonal(w) {
				if a.lx.isPersonalAt(toks, i) && !(a.clue && i == 0) {
					add(personalFeature, personalWeight)
				}
				continue
			}
			if e.lex.stop[w] || isQuestionWord(w) {
				continue
			}
			if e.lex.serviceNouns[w] || e.lex.travelNouns[w] && a.directions() {
				// The user's dealings with a business or a service — a
				// booking, a price, a password, directions — are their own
				// affairs, which no tool describes.
				add(personalFeature, personalWeight)
			}
			s := e.lex.stemOf(w)
			if e.lex.questionWords.nameStems[tools.AnswerTime][s] && !e.lex.clockSense(toks, i) ||
				e.lex.questionWords.nameStems[tools.AnswerDate][s] && !e.lex.calendarSense(toks, i) ||
				a.isWeatherConcept(w) && !a.weatherSense(i) || (a.command || a.aboutConcept()) && e.lex.subjectWord(w) {
				// "vacation time", "next time", "due date", "pay day", "a
				// rain jacket", "under the weather": not the clock, the
				// calendar or the weather, another word. In a request for
				// an action the tools' subjects name a song, a product or a
				// setting ("play Stormy Weather", "dim the lights to 30
				// percent"), and in a question of what a thing is they
				// name a concept ("what is a time zone", "the difference
				// between weather and climate"): other words too.
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
func (e *Engine) vector(a *analysis) []float32 {
	v := make([]float32, Dimensions)
	e.place(v, a, 1)
	if a.context != nil {
		// The rest of a message around its request (focus.go).
		e.place(v, a.context, contextWeight)
	}
	return v
}

// place adds a text's features to v, scaled.
func (e *Engine) place(v []float32, a *analysis, scale float64) {
	names, weights := e.features(a)
	// Words are hashed past a fixed block of slot dimensions, so a
	// library whose tools bring new subjects (new slots) moves no word
	// to another dimension: adding a tool never changes which words of
	// other tools collide.
	first := uint32(max(reservedSlots, len(e.lex.slots)))
	free := uint32(Dimensions) - first
	for i, f := range names {
		w := float32(weights[i] * scale)
		if slot, ok := e.lex.slots[f]; ok {
			v[slot] += w
			continue
		}
		h := fnv1a(f)
		idx := first + h%free
		if h&(1<<31) != 0 {
			v[idx] -= w
		} else {
			v[idx] += w
		}
	}
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
