package grounding

import (
	"fmt"
	"math"
	"regexp"
)

// Pattern is one element of GEAR's pattern set 𝒮 (GEAR, arXiv:2307.08775, §3.2,
// Appendix B.2): a regular expression e_j that finds the pattern in a text,
// and its prior probability 𝒫_j in ordinary text. Rare patterns (numbers,
// times) weigh more in the pattern score than common ones (English words),
// by log(1/𝒫_j).
type Pattern struct {
	// Name is the pattern's name as tools refer to it in Spec.OutputPattern
	// ("time", "weather") and as grounding shows it.
	Name string
	// Re finds the pattern; every non-overlapping match counts once.
	Re *regexp.Regexp
	// Prior is 𝒫_j, in (0, 1].
	Prior float64
	// Doc says what the expression matches, for `gear ground` and docs.
	Doc string
}

// The pattern set. The four generic patterns are Appendix B.2's English
// token, non-ASCII token, number and symbol, with the expressions of the
// paper's code (gear/pattern.py); time and weather are the special patterns
// of that code, widened as noted. Priors are the paper's generalisation
// prior {e .75, f .15, n .02, s .02, time .02, ...}; weather takes the .02
// the paper gave its sleep pattern, and the .02 of its robot-move pattern is
// left unassigned (gear has neither tool), so the priors sum to 0.98.
var (
	// englishRe: a run of ASCII letters ("Hello", "km").
	englishRe = regexp.MustCompile(`[A-Za-z]+`)
	// nonASCIIRe: one character outside ASCII ("lächeln" has one, "東京"
	// two). Counted per character, as in the paper's code.
	nonASCIIRe = regexp.MustCompile(`[^\x00-\x7F]`)
	// numberRe: an integer or decimal with an optional sign ("-3", "2.5",
	// ".5").
	numberRe = regexp.MustCompile(`[-+]?[0-9]*\.[0-9]+|[-+]?[0-9]+`)
	// symbolRe: a run of characters that are neither word characters nor
	// space ("?", "°", ":-"). Word characters are Unicode letters, digits
	// and "_", as Python's \w in the paper's code.
	symbolRe = regexp.MustCompile(`[^\p{L}\p{N}_\s]+`)
	// timeRe: a calendar date or a clock time: 2024-05-01, 09:30, 9:30:15,
	// 9:30 pm, 05/01/2024. The paper's code has two-digit hours only; a
	// one-digit hour and an am/pm suffix are allowed here because clocks
	// print "9:30 PM".
	timeRe = regexp.MustCompile(`(?i)\b(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?:\s?[ap]\.?m\b\.?)?|[0-9]{1,2}/[0-9]{1,2}/[0-9]{4})`)
	// weatherRe: a weather reading. The paper's code matches labelled
	// readings ("Temperature: 21", "Humidity: 60", "Weather: Sunny"); gear
	// also counts a temperature with a degree sign or unit ("21 °C",
	// "70°F", "21 degrees") and a condition word ("sunny", "rain",
	// "thunderstorm"), because weather services and models write
	// conditions that way.
	weatherRe = regexp.MustCompile(`(?i)\b(?:temperature|feels like|humidity|visibility|wind(?: speed)?|precipitation|pressure|uv index|weather|conditions?)\s*:\s*[-+]?[0-9]*\.?[0-9a-z]+` +
		`|[-+]?[0-9]+(?:\.[0-9]+)?\s?(?:°\s?[CF]?|degrees?\b(?:\s(?:celsius|fahrenheit|[cf]\b))?)` +
		`|\b(?:sunny|sunshine|clear skies|cloudy|overcast|partly cloudy|rain|rainy|showers?|drizzle|snow|snowy|snowfall|sleet|hail|fog|foggy|mist|misty|haze|hazy|thunderstorms?|windy|humid|blizzard)\b`)
)

// Pattern names.
const (
	PatternEnglish  = "english"
	PatternNonASCII = "non-ascii"
	PatternNumber   = "number"
	PatternSymbol   = "symbol"
	PatternTime     = "time"
	PatternWeather  = "weather"
)

// PatternSet is 𝒮 with its prior 𝒫. It is read-only once built.
type PatternSet struct {
	patterns []Pattern
	index    map[string]int
	logInv   []float64 // log(1/𝒫_j)
}

// DefaultPatterns returns gear's pattern set: English token, non-ASCII,
// number, symbol, time and weather.
func DefaultPatterns() *PatternSet {
	ps, err := NewPatternSet([]Pattern{
		{Name: PatternEnglish, Re: englishRe, Prior: 0.75, Doc: "a run of ASCII letters"},
		{Name: PatternNonASCII, Re: nonASCIIRe, Prior: 0.15, Doc: "one non-ASCII character"},
		{Name: PatternNumber, Re: numberRe, Prior: 0.02, Doc: "an integer or decimal number"},
		{Name: PatternSymbol, Re: symbolRe, Prior: 0.02, Doc: "a run of symbols (neither letters, digits nor space)"},
		{Name: PatternTime, Re: timeRe, Prior: 0.02, Doc: "a date (2024-05-01, 05/01/2024) or clock time (09:30, 9:30 pm)"},
		{Name: PatternWeather, Re: weatherRe, Prior: 0.02, Doc: "a weather reading: labelled value, temperature, or condition word"},
	})
	if err != nil {
		panic(err) // the built-in set is constant; a test covers it
	}
	return ps
}

// NewPatternSet builds a pattern set; names must be unique and priors in
// (0, 1].
func NewPatternSet(patterns []Pattern) (*PatternSet, error) {
	ps := &PatternSet{index: map[string]int{}}
	for _, p := range patterns {
		if p.Re == nil {
			return nil, fmt.Errorf("pattern %q: no expression", p.Name)
		}
		if !(p.Prior > 0 && p.Prior <= 1) {
			return nil, fmt.Errorf("pattern %q: prior %v not in (0, 1]", p.Name, p.Prior)
		}
		if _, dup := ps.index[p.Name]; dup {
			return nil, fmt.Errorf("pattern %q declared twice", p.Name)
		}
		ps.index[p.Name] = len(ps.patterns)
		ps.patterns = append(ps.patterns, p)
		ps.logInv = append(ps.logInv, math.Log(1/p.Prior))
	}
	return ps, nil
}

// Size is |𝒮|.
func (ps *PatternSet) Size() int { return len(ps.patterns) }

// Patterns returns the set's patterns in order.
func (ps *PatternSet) Patterns() []Pattern { return append([]Pattern(nil), ps.patterns...) }

// Has reports whether the set has a pattern called name.
func (ps *PatternSet) Has(name string) bool {
	_, ok := ps.index[name]
	return ok
}

// Counts is an encoded text: C_j for each pattern of the set, in set order.
// Its total is |â| (the length of the encoded pattern multiset).
type Counts []int

// Total is the number of encoded patterns.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Encode encodes text with every pattern of the set: a text exhibiting
// several patterns counts each ("lächeln" is two English runs and one
// non-ASCII character).
func (ps *PatternSet) Encode(text string) Counts {
	c := make(Counts, len(ps.patterns))
	for j := range ps.patterns {
		c[j] = ps.count(j, text)
	}
	return c
}

// count is C_j of text: the non-overlapping matches of pattern j.
func (ps *PatternSet) count(j int, text string) int {
	return len(ps.patterns[j].Re.FindAllStringIndex(text, -1))
}

// EncodeAs encodes a tool's response with its special output pattern, as
// the paper's code does for tools declared with one (the calculator's
// response is a number, the time zone converter's a time): only that
// pattern is counted. When the response does not exhibit the pattern at all
// (an error text, say), or the set has no such pattern, it is encoded with
// the whole set, so that it is still scored on what it is.
func (ps *PatternSet) EncodeAs(text, pattern string) Counts {
	j, ok := ps.index[pattern]
	if !ok || pattern == "" {
		return ps.Encode(text)
	}
	c := make(Counts, len(ps.patterns))
	if c[j] = ps.count(j, text); c[j] == 0 {
		// Its own count is known to be 0: only the others are read.
		for k := range ps.patterns {
			if k != j {
				c[k] = ps.count(k, text)
			}
		}
	}
	return c
}

// Score is GEAR's pattern similarity score (GEAR, arXiv:2307.08775, §3.2):
//
//	P(â, â_i) = Σ_j (C_j^â + λ) C_j^{â_i} / ((|â| + λ|𝒮|) |â_i|) · log(1/𝒫_j)
//
// with 0 when â_i encodes to nothing (an empty or unparsable response). An
// empty preliminary answer with λ = 0 also scores 0 (the formula is 0/0).
func (ps *PatternSet) Score(prelim, response Counts, lambda float64) float64 {
	ni := response.Total()
	if ni == 0 {
		return 0
	}
	denom := (float64(prelim.Total()) + lambda*float64(len(ps.patterns))) * float64(ni)
	if denom == 0 {
		return 0
	}
	var sum float64
	for j := range ps.patterns {
		if response[j] == 0 {
			continue
		}
		sum += (float64(prelim[j]) + lambda) * float64(response[j]) * ps.logInv[j]
	}
	return sum / denom
}

// Bound is the largest pattern score any response can get against prelim:
// P is an average of the per-pattern weights (C_j^â + λ) log(1/𝒫_j) /
// (|â| + λ|𝒮|), weighted by the response's counts, so it is at most the
// largest weight. The shortlist uses it to skip calls that could not
// change the choice.
func (ps *PatternSet) Bound(prelim Counts, lambda float64) float64 {
	denom := float64(prelim.Total()) + lambda*float64(len(ps.patterns))
	if denom == 0 {
		return 0
	}
	var best float64
	for j := range ps.patterns {
		if w := (float64(prelim[j]) + lambda) * ps.logInv[j] / denom; w > best {
			best = w
		}
	}
	return best
}
