package offline_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/tools/calc"
)

// compoundItem is one line of testdata/blind/compound-quantities.jsonl
// (see its README: written blind, answers computed independently).
type compoundItem struct {
	ID        string          `json:"id"`
	Query     string          `json:"query"`
	Answer    json.RawMessage `json:"answer"`
	Tolerance float64         `json:"tolerance"`
	Kind      string          `json:"kind"`
}

// CallConfidenceGate is the call confidence below which the measurement
// counts a calculator answer as asked about rather than shown as fact: the
// threshold this package proposes to the confidence gate.
const CallConfidenceGate = 0.8

// compoundOutcome is what became of one question.
type compoundOutcome int

const (
	outcomeRight     compoundOutcome = iota // the calculator's answer is right
	outcomeAsked                            // wrong, but its call confidence is below the gate
	outcomeConfident                        // wrong and shown as fact
	outcomeRefused                          // no calculator answer at all
)

var firstNumber = regexp.MustCompile(`-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?`)

// judge compares the calculator's response with the item's answer: the
// first number within tolerance, or an ISO date exactly.
func judge(it compoundItem, response string) bool {
	var date string
	if json.Unmarshal(it.Answer, &date) == nil {
		return strings.Contains(response, date)
	}
	var want float64
	if json.Unmarshal(it.Answer, &want) != nil {
		return false
	}
	m := firstNumber.FindString(response)
	if m == "" {
		return false
	}
	got, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64)
	if err != nil {
		return false
	}
	return math.Abs(got-want) <= it.Tolerance+1e-9
}

// TestCompoundQuantities runs the offline engine, as gear ask --offline
// grounds, on the blind compound-quantity sets and counts its answers:
// right, wrong but asked about (call confidence below the gate), wrong and
// shown as fact, and refused (no calculator answer). The target is no
// wrong answer shown as fact.
func TestCompoundQuantities(t *testing.T) {
	for _, file := range []string{"compound-quantities.jsonl", "blind5/compound2.jsonl"} {
		t.Run(file, func(t *testing.T) { compoundQuantities(t, "../../testdata/blind/"+file) })
	}
}

// compoundQuantities is TestCompoundQuantities on one set.
func compoundQuantities(t *testing.T, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var items []compoundItem
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var it compoundItem
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	reg, gaz := builtin(t)
	eng := offline.New(offline.Options{Places: gaz, Tools: reg.Specs(), Evaluate: func(e string) (string, error) {
		v, err := calc.Eval(e)
		if err != nil {
			return "", err
		}
		return v.String(), nil
	}})
	g, err := grounding.New(reg, eng.Grounding(), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	counts := map[compoundOutcome]int{}
	rightButAsked := 0
	byKind := map[string]*[4]int{}
	var confident []string
	for _, it := range items {
		res, err := g.Ground(context.Background(), it.Query)
		if err != nil {
			t.Fatal(err)
		}
		out := outcomeRefused
		c := res.Choice
		if c.Family == "calc" && res.Route.NeedsTool && c.Response != "" {
			switch {
			case judge(it, c.Response):
				out = outcomeRight
				if c.Reading != nil && c.Reading.Confidence < CallConfidenceGate {
					rightButAsked++
				}
			case c.Reading != nil && c.Reading.Confidence < CallConfidenceGate:
				out = outcomeAsked
			default:
				out = outcomeConfident
				conf := -1.0
				if c.Reading != nil {
					conf = c.Reading.Confidence
				}
				confident = append(confident, fmt.Sprintf("%s %q: %s = %s (want %s, call confidence %.2f)", it.ID, it.Query, c.Call, c.Response, it.Answer, conf))
			}
		}
		if os.Getenv("GEAR_COMPOUND_VERBOSE") != "" {
			conf, doubts := -1.0, []string(nil)
			if c.Reading != nil {
				conf, doubts = c.Reading.Confidence, c.Reading.Doubts
			}
			t.Logf("%d %s %q -> %s %s = %q want %s conf %.2f %q", out, it.ID, it.Query, c.Tool, c.Call, c.Response, it.Answer, conf, doubts)
		}
		counts[out]++
		if byKind[it.Kind] == nil {
			byKind[it.Kind] = &[4]int{}
		}
		byKind[it.Kind][out]++
	}
	t.Logf("compound quantities (%d): right %d (of which asked about %d), wrong but asked %d, wrong and shown as fact %d, refused %d (call-confidence gate %.2f)",
		len(items), counts[outcomeRight], rightButAsked, counts[outcomeAsked], counts[outcomeConfident], counts[outcomeRefused], CallConfidenceGate)
	for k, c := range byKind {
		t.Logf("  %-16s right %3d asked %3d confident-wrong %3d refused %3d", k, c[0], c[1], c[2], c[3])
	}
	// The target: no wrong answer shown as fact.
	for _, s := range confident {
		t.Error("shown as fact: " + s)
	}
}

// The offline engine's call confidence reaches the grounder's choice.
func TestGroundCarriesOfflineReading(t *testing.T) {
	reg, gaz := builtin(t)
	eng := offline.New(offline.Options{Places: gaz, Tools: reg.Specs()})
	g, err := grounding.New(reg, eng.Grounding(), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		query string
		high  bool
	}{
		{"what's 5 feet 10 inches in cm", true},
		{"Jake has 34 fewer balls than Audrey. Audrey has 41 balls. How many balls does Jake have?", false},
	} {
		res, err := g.Ground(context.Background(), tt.query)
		if err != nil {
			t.Fatal(err)
		}
		r := res.Choice.Reading
		if res.Choice.Family != "calc" || r == nil {
			t.Fatalf("%q: chose %s with reading %v", tt.query, res.Choice.Tool, r)
		}
		if (r.Confidence >= CallConfidenceGate) != tt.high {
			t.Errorf("%q: %s read at %.2f (%q), want high %v", tt.query, res.Choice.Call, r.Confidence, r.Doubts, tt.high)
		}
	}
}
