package grounding

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// seq builds Counts over the default set from a Table 7 string: "e" English
// token, "n" number, "f" non-ASCII, "s" symbol, "t" time, "w" weather.
func seq(t *testing.T, ps *PatternSet, s string) Counts {
	t.Helper()
	idx := map[rune]string{'e': PatternEnglish, 'f': PatternNonASCII, 'n': PatternNumber, 's': PatternSymbol, 't': PatternTime, 'w': PatternWeather}
	c := make(Counts, ps.Size())
	for _, r := range s {
		j, ok := ps.index[idx[r]]
		if !ok {
			t.Fatalf("unknown pattern letter %q", r)
		}
		c[j]++
	}
	return c
}

func TestDefaultPatterns(t *testing.T) {
	ps := DefaultPatterns()
	want := map[string]float64{PatternEnglish: 0.75, PatternNonASCII: 0.15, PatternNumber: 0.02, PatternSymbol: 0.02, PatternTime: 0.02, PatternWeather: 0.02}
	if ps.Size() != len(want) {
		t.Fatalf("|S| = %d, want %d", ps.Size(), len(want))
	}
	sum := 0.0
	for _, p := range ps.Patterns() {
		if want[p.Name] != p.Prior {
			t.Errorf("%s: prior %v, want %v", p.Name, p.Prior, want[p.Name])
		}
		if p.Doc == "" {
			t.Errorf("%s: undocumented", p.Name)
		}
		sum += p.Prior
	}
	if math.Abs(sum-0.98) > 1e-9 {
		t.Errorf("priors sum to %v, want 0.98", sum)
	}
}

func TestNewPatternSetRejects(t *testing.T) {
	re := regexp.MustCompile(`x`)
	tests := []struct {
		name string
		ps   []Pattern
		want string
	}{
		{"no expression", []Pattern{{Name: "a", Prior: 0.5}}, "no expression"},
		{"zero prior", []Pattern{{Name: "a", Re: re}}, "prior"},
		{"prior above one", []Pattern{{Name: "a", Re: re, Prior: 1.5}}, "prior"},
		{"duplicate", []Pattern{{Name: "a", Re: re, Prior: 0.5}, {Name: "a", Re: re, Prior: 0.5}}, "twice"},
	}
	for _, tt := range tests {
		if _, err := NewPatternSet(tt.ps); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestEncode(t *testing.T) {
	ps := DefaultPatterns()
	tests := []struct {
		text, as string
		want     string // Table 7 letters, in set order
	}{
		// The paper's footnote 4 examples.
		{"Hello World 2023", "", "een"},
		{"lächeln", "", "eef"},
		{"It is 96.", "", "eens"},
		{"", "", ""},
		// A special output pattern counts only itself...
		{"2022-01-02 09:00:00", PatternTime, "tt"},
		{"Now: light rain, 16.8°C, feels like 15.9°C, humidity 84%", PatternWeather, "www"},
		// ...and a response without it is encoded with the whole set.
		{"no such place", PatternTime, "eee"},
		{"96", "unknown", "n"},
		// Generic encoding sees the special patterns too.
		{"9:30 pm", "", "ennst"},
	}
	for _, tt := range tests {
		var got Counts
		if tt.as == "" {
			got = ps.Encode(tt.text)
		} else {
			got = ps.EncodeAs(tt.text, tt.as)
		}
		if want := seq(t, ps, tt.want); !equalCounts(got, want) {
			t.Errorf("encode %q as %q: %v, want %v (%s)", tt.text, tt.as, got, want, tt.want)
		}
	}
}

func equalCounts(a, b Counts) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTable7 checks the properties of Appendix A.2 with the encoded
// examples of Table 7 (λ = 1, the default prior).
func TestTable7(t *testing.T) {
	ps := DefaultPatterns()
	P := func(a, ai string) float64 { return ps.Score(seq(t, ps, a), seq(t, ps, ai), 1) }
	const eps = 1e-12
	// Order insensitive: the position of a pattern does not matter.
	if a, b := P("ene", "ene"), P("ene", "een"); math.Abs(a-b) > eps {
		t.Errorf("order: P(ene, ene) = %v, P(ene, een) = %v", a, b)
	}
	// Length insensitive: responses with the same pattern distribution
	// score alike, whatever their length.
	if a, b := P("eee", "en"), P("eee", "enenen"); math.Abs(a-b) > eps {
		t.Errorf("length: P(eee, en) = %v, P(eee, enenen) = %v", a, b)
	}
	// Pattern sensitive: a response with more of a rare pattern that the
	// preliminary answer also has scores higher (𝒫(n) < 𝒫(e)).
	if a, b := P("ene", "ene"), P("ene", "enn"); !(a < b) {
		t.Errorf("pattern: P(ene, ene) = %v, want < P(ene, enn) = %v", a, b)
	}
	// An empty response scores the lower bound, 0.
	if got := P("ene", ""); got != 0 {
		t.Errorf("empty response: %v, want 0", got)
	}
}

// TestCommutativity documents what holds of Table 7's fifth property.
// The paper claims P(â, â_i) = P(â_i, â); with λ = 0 the formula is
// symmetric, Σ C_j^â C_j^{â_i} log(1/𝒫_j) / (|â| |â_i|), but with λ > 0 the
// smoothing is added to â's counts only, so it is not: Table 7's own
// example, â = ene and â_1 = eee, gives P(â, â_1) ≈ 0.0959 and
// P(â_1, â) ≈ 0.2301 under the default prior.
func TestCommutativity(t *testing.T) {
	ps := DefaultPatterns()
	a, a1 := seq(t, ps, "ene"), seq(t, ps, "eee")
	fwd, back := ps.Score(a, a1, 1), ps.Score(a1, a, 1)
	if math.Abs(fwd-0.0959) > 5e-5 || math.Abs(back-0.2301) > 5e-5 {
		t.Errorf("λ=1: P(ene, eee) = %.4f, P(eee, ene) = %.4f; want 0.0959 and 0.2301", fwd, back)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1000; i++ {
		x, y := randomCounts(rng, ps.Size()), randomCounts(rng, ps.Size())
		if f, b := ps.Score(x, y, 0), ps.Score(y, x, 0); math.Abs(f-b) > 1e-12 {
			t.Fatalf("λ=0: P(%v, %v) = %v but P(%v, %v) = %v", x, y, f, y, x, b)
		}
	}
}

func randomCounts(rng *rand.Rand, n int) Counts {
	c := make(Counts, n)
	for c.Total() == 0 {
		for j := range c {
			if rng.IntN(3) == 0 {
				c[j] = rng.IntN(6)
			}
		}
	}
	return c
}

// TestBounds checks Appendix A.1: 0 ≤ P, and with λ > 0
// P ≤ Σ_{α∈δ} (C_α^â + λ)/(|â| + λ|S|) log(1/𝒫_α) + Σ_{β∉δ} λ/(|â| + λ|S|) log(1/𝒫_β),
// δ being the patterns â exhibits; and P never exceeds the largest
// log(1/𝒫_j).
func TestBounds(t *testing.T) {
	ps := DefaultPatterns()
	rng := rand.New(rand.NewPCG(3, 4))
	maxLog := 0.0
	for _, l := range ps.logInv {
		maxLog = math.Max(maxLog, l)
	}
	for _, lambda := range []float64{0.5, 1, 2} {
		for i := 0; i < 2000; i++ {
			a, ai := randomCounts(rng, ps.Size()), randomCounts(rng, ps.Size())
			p := ps.Score(a, ai, lambda)
			denom := float64(a.Total()) + lambda*float64(ps.Size())
			bound := 0.0
			for j := range a {
				bound += (float64(a[j]) + lambda) / denom * ps.logInv[j]
			}
			if p < 0 || p > bound+1e-12 || p > maxLog+1e-12 {
				t.Fatalf("λ=%v: P(%v, %v) = %v outside [0, %v] (max log %v)", lambda, a, ai, p, bound, maxLog)
			}
		}
	}
}

// TestPatternSetSizeInsensitive checks the fourth property as the paper
// argues it: adding a pattern that neither text exhibits changes P only
// through λ|S| in the denominator, by the factor (|â| + λ|S|)/(|â| + λ(|S|+1)),
// which tends to 1 as |â| grows.
func TestPatternSetSizeInsensitive(t *testing.T) {
	base := DefaultPatterns()
	more, err := NewPatternSet(append(base.Patterns(), Pattern{Name: "url", Re: regexp.MustCompile(`https?://\S+`), Prior: 0.01, Doc: "a URL"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"It is about 42 km", strings.Repeat("a long answer with words and 3 numbers ", 10)} {
		resp := "The answer is 42."
		p1 := base.Score(base.Encode(text), base.Encode(resp), 1)
		p2 := more.Score(more.Encode(text), more.Encode(resp), 1)
		n := float64(base.Encode(text).Total())
		want := (n + 6) / (n + 7)
		if math.Abs(p2/p1-want) > 1e-9 {
			t.Errorf("%q: ratio %v, want %v", text, p2/p1, want)
		}
	}
}

// Bound is an upper bound of P against a preliminary answer, whatever the
// response, and a tight one: the response made of the best pattern alone
// reaches it.
func TestPatternBound(t *testing.T) {
	ps := DefaultPatterns()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, lambda := range []float64{0, 0.5, 1, 2} {
		for i := 0; i < 2000; i++ {
			a, ai := randomCounts(rng, ps.Size()), randomCounts(rng, ps.Size())
			b := ps.Bound(a, lambda)
			if p := ps.Score(a, ai, lambda); p > b+1e-12 {
				t.Fatalf("λ=%v: P(%v, %v) = %v above the bound %v", lambda, a, ai, p, b)
			}
			reached := false
			for j := range a {
				one := make(Counts, ps.Size())
				one[j] = 1
				if math.Abs(ps.Score(a, one, lambda)-b) < 1e-12 {
					reached = true
				}
			}
			if !reached && b > 0 {
				t.Fatalf("λ=%v: no single-pattern response reaches the bound %v of %v", lambda, b, a)
			}
		}
	}
}
