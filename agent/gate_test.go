package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/tools"
)

// readingProber is the offline engine's prober that also says, from a
// script, how well it read each tool's call (a grounding.CallReader): the
// gate's tests choose the call confidence.
type readingProber struct {
	grounding.Prober
	readings map[string]grounding.CallReading
}

func (p readingProber) ReadCall(ctx context.Context, spec tools.Spec, q string) (string, *grounding.CallReading, error) {
	text, err := p.Call(ctx, spec, q)
	r := p.readings[spec.Name]
	return text, &r, err
}

// plainProber hides whatever reading its prober gives: a prober that is
// not a CallReader, as a model prober is.
type plainProber struct{ grounding.Prober }

type gateOpts struct {
	readings     map[string]grounding.CallReading // nil: a plain prober, no readings
	confirmBelow float64
	callBelow    float64
	offerBelow   float64
	extra        []tools.Tool
}

// gateAgent is the offline agent on the test library, no chat model.
func gateAgent(t *testing.T, o gateOpts) (*Agent, library) {
	t.Helper()
	lib := newLibrary(t, libOpts{})
	reg := lib.reg
	if len(o.extra) > 0 {
		var err error
		all := append([]tools.Tool(nil), o.extra...)
		for _, n := range lib.reg.Names() {
			tl, _ := lib.reg.Tool(n)
			all = append(all, tl)
		}
		if reg, err = tools.NewRegistry(all...); err != nil {
			t.Fatal(err)
		}
	}
	off := offline.New(offline.Options{Places: placeFinder{}, Tools: reg.Specs()})
	eng := off.Grounding()
	eng.Prober = plainProber{eng.Prober}
	if o.readings != nil {
		eng.Prober = readingProber{Prober: eng.Prober, readings: o.readings}
	}
	ag, err := New(Config{Tools: reg, Grounding: eng, GroundingOptions: grounding.DefaultOptions(),
		ConfirmBelow: o.confirmBelow, ConfirmCallBelow: o.callBelow, OfferToolsBelow: o.offerBelow})
	if err != nil {
		t.Fatal(err)
	}
	return ag, lib
}

var unsureCalc = grounding.CallReading{Confidence: 0.45, Doubts: []string{"the quantity 'dozen' found no place", "\x1b[31mred\x1b[0m"}}

// A call read with a confidence under confirm_call_below is shown with its
// doubts and asked about; above it, or with no reading, it runs as fact.
func TestCallGateAsksOnlyBelowItsThreshold(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		readings map[string]grounding.CallReading
		answer   string
		yes      bool
		wantAsk  bool
		wantRun  bool
	}{
		{name: "sure call runs", readings: map[string]grounding.CallReading{"Calculator": {Confidence: 0.95}}, wantRun: true},
		{name: "at the threshold runs", readings: map[string]grounding.CallReading{"Calculator": {Confidence: 0.8}}, wantRun: true},
		{name: "no reading runs", readings: nil, wantRun: true},
		{name: "unsure call, yes", readings: map[string]grounding.CallReading{"Calculator": unsureCalc}, answer: "Calculator", wantAsk: true, wantRun: true},
		{name: "unsure call, no", readings: map[string]grounding.CallReading{"Calculator": unsureCalc}, answer: NoTool, wantAsk: true},
		{name: "unsure call, --yes", readings: map[string]grounding.CallReading{"Calculator": unsureCalc}, yes: true, wantRun: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ag, _ := gateAgent(t, gateOpts{readings: tc.readings, confirmBelow: 0.01, callBelow: 0.8})
			rec, asked := runAnswering(t, ag, Request{Text: "/GEAR what is 17 * 23", Yes: tc.yes}, tc.answer)
			if got := len(asked) > 0; got != tc.wantAsk {
				t.Fatalf("asked %+v, want asked %v", asked, tc.wantAsk)
			}
			// Grounding may have run the read-only calculator in its probe;
			// what counts is whether the turn's call ran and answered.
			if ran := rec.Call != nil; ran != tc.wantRun {
				t.Fatalf("ran %v, want %v; answer %q", ran, tc.wantRun, rec.Answer)
			}
			if rec.Emission == nil || rec.Emission.Call != "Calculator(17 * 23)" {
				t.Fatalf("emission %+v", rec.Emission)
			}
			if r, want := rec.Emission.Reading, tc.readings["Calculator"]; (r == nil) != (tc.readings == nil) ||
				r != nil && r.Confidence != want.Confidence {
				t.Errorf("emission reading %+v, want %+v", r, want)
			}
			if tc.readings == nil && rec.Grounding.Tools[0].Reading != nil {
				t.Errorf("a plain prober's score has a reading: %+v", rec.Grounding.Tools[0].Reading)
			}
			if tc.wantAsk {
				c := asked[0]
				if c.Kind != ConfirmCall || c.Threshold != 0.8 || len(c.Candidates) != 1 || c.Candidates[0].Call != "Calculator(17 * 23)" ||
					c.Candidates[0].Reading == nil || c.Candidates[0].Reading.Confidence != 0.45 || c.Effect != "" {
					t.Fatalf("question %+v", c)
				}
				if d := c.Candidates[0].Reading.Doubts; len(d) != 2 || strings.ContainsRune(d[1], '\x1b') {
					t.Errorf("doubts not sanitised: %q", d)
				}
				if rec.Permission == nil || rec.Permission.Kind != ConfirmCall || rec.Permission.Chosen != tc.answer {
					t.Errorf("recorded question %+v", rec.Permission)
				}
			}
			if tc.yes && (rec.Permission == nil || !rec.Permission.Auto) {
				t.Errorf("--yes not recorded: %+v", rec.Permission)
			}
			if !tc.wantRun {
				for _, want := range []string{"Calculator(17 * 23) was not run", "only 45% sure", "under 80%", "found no place", "/GEAR Calculator(17 * 23)"} {
					if !strings.Contains(rec.Answer, want) {
						t.Errorf("answer %q lacks %q", rec.Answer, want)
					}
				}
				if rec.AnsweredBy != "gear" || rec.Call != nil {
					t.Errorf("answered by %q, call %+v", rec.AnsweredBy, rec.Call)
				}
			}
		})
	}
}

// The tool question shows each candidate's call and its reading; a call
// picked there, seen with its doubts, is not asked about again.
func TestToolGateShowsCallsAndAsksOnce(t *testing.T) {
	t.Parallel()
	ag, _ := gateAgent(t, gateOpts{readings: map[string]grounding.CallReading{"Calculator": unsureCalc},
		confirmBelow: 1, callBelow: 0.8})
	rec, asked := runAnswering(t, ag, Request{Text: "what is 17 * 23"}, "Calculator")
	if len(asked) != 1 || asked[0].Kind != "" {
		t.Fatalf("asked %+v, want the tool question once", asked)
	}
	var calc *Candidate
	for i, c := range asked[0].Candidates {
		if c.Tool == "Calculator" {
			calc = &asked[0].Candidates[i]
		}
	}
	if calc == nil || calc.Call != "Calculator(17 * 23)" || calc.Reading == nil || calc.Reading.Confidence != 0.45 {
		t.Fatalf("candidates %+v", asked[0].Candidates)
	}
	if rec.Call == nil || rec.Call.Response != "391" || rec.Permission != nil || rec.ChosenBy != "grounding" && rec.ChosenBy != "user" {
		t.Errorf("call %+v, permission %+v", rec.Call, rec.Permission)
	}
}

// A tool that is not read-only, with a doubtful call, is asked about once:
// the call's question names the effect too.
func TestDoubtfulCallOfAToolThatWritesAsksOnce(t *testing.T) {
	t.Parallel()
	ag, runs, _ := permitAgent(t, nil)
	off := offline.New(offline.Options{Places: placeFinder{}, Tools: ag.reg.Specs()})
	eng := off.Grounding()
	eng.Prober = readingProber{Prober: eng.Prober, readings: map[string]grounding.CallReading{"files.save": {Confidence: 0.3}}}
	ag2, err := New(Config{Tools: ag.reg, Grounding: eng, GroundingOptions: grounding.DefaultOptions(), ConfirmCallBelow: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	rec, asked := runAnswering(t, ag2, Request{Text: "/GEAR save 2 and 3 to a file", Tool: "files.save"}, "files.save")
	if rec.Emission == nil || rec.Emission.Rejected {
		t.Fatalf("the offline engine wrote no files.save call: %+v", rec.Emission)
	}
	if len(asked) != 1 || asked[0].Kind != ConfirmCall || asked[0].Effect != "writes" || asked[0].Source != "mcp:files" {
		t.Fatalf("asked %+v", asked)
	}
	if runs.Load() != 1 {
		t.Errorf("runs %d", runs.Load())
	}
}

// A "no tool" choice grounding is unsure of, on a query put as a request
// for information, offers the closest tools that have a call; conversation,
// or a sure "no tool", does not.
func TestUnsureNoToolOffersTheClosestTools(t *testing.T) {
	t.Parallel()
	const info = "give me all the moons of jupiter"
	for _, tc := range []struct {
		name       string
		query      string
		offerBelow float64
		answer     string
		yes        bool
		wantOffer  bool
	}{
		{name: "offered, one picked", query: info, offerBelow: 1, answer: "first", wantOffer: true},
		{name: "offered, none picked", query: info, offerBelow: 1, answer: NoTool, wantOffer: true},
		{name: "offered, --yes answers none", query: info, offerBelow: 1, yes: true},
		{name: "sure enough of none", query: info, offerBelow: 0.5},
		{name: "off by default", query: info},
		{name: "conversation", query: "how are you", offerBelow: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ag, _ := gateAgent(t, gateOpts{confirmBelow: 0.5, offerBelow: tc.offerBelow})
			turn := ag.Start(context.Background(), Request{Text: tc.query, Yes: tc.yes})
			var asked []Confirmation
			for {
				ev, ok := turn.Next()
				if !ok {
					break
				}
				if q, isQ := ev.(ConfirmationNeeded); isQ {
					asked = append(asked, q.Confirmation)
					pick := tc.answer
					if pick == "first" {
						pick = q.Confirmation.Candidates[0].Tool
					}
					if err := turn.Confirm(pick); err != nil {
						t.Fatal(err)
					}
				}
			}
			rec := turn.Wait()
			if got := len(asked) > 0; got != tc.wantOffer {
				t.Fatalf("offered %v (%+v), want %v", got, asked, tc.wantOffer)
			}
			if rec.Grounding == nil || rec.Grounding.Choice != NoTool {
				t.Fatalf("grounding chose %+v; the test needs none", rec.Grounding)
			}
			c := rec.Confirmation
			offered := tc.wantOffer || tc.yes
			if !offered {
				if c != nil || strings.Contains(rec.Answer, "Closest") {
					t.Errorf("offered anyway: %+v, answer %q", c, rec.Answer)
				}
				return
			}
			if c == nil || c.Kind != ConfirmNone || c.Threshold != tc.offerBelow || c.NoneConfidence < 0.5 || len(c.Candidates) == 0 {
				t.Fatalf("offer %+v", c)
			}
			sum := 0.0
			for _, cand := range c.Candidates {
				if cand.Call == "" || !strings.HasPrefix(cand.Call, cand.Tool+"(") {
					t.Errorf("candidate without its call (no chat model to write one): %+v", cand)
				}
				sum += cand.Confidence
			}
			if sum > 1.0001 || c.Candidates[0].Confidence <= rec.Grounding.Tools[0].Probability {
				t.Errorf("candidates' probabilities are not given a tool is needed: %+v", c.Candidates)
			}
			switch {
			case tc.answer == "first":
				if rec.Call == nil || rec.Tool != c.Candidates[0].Tool || rec.ChosenBy != "user" {
					t.Errorf("picked tool did not run: %+v, chosen by %q", rec.Call, rec.ChosenBy)
				}
			default:
				if rec.Call != nil || rec.AnsweredBy != "gear" || !strings.Contains(rec.Answer, "I'm not sure this needs a tool. Closest: "+c.Candidates[0].Tool) ||
					!strings.Contains(rec.Answer, "/GEAR "+c.Candidates[0].Call) {
					t.Errorf("answer %q by %q, call %+v", rec.Answer, rec.AnsweredBy, rec.Call)
				}
				if tc.yes != c.Auto || c.Chosen != NoTool {
					t.Errorf("answered %+v", c)
				}
			}
		})
	}
}

func TestGateThresholdsOutOfRangeAreRefused(t *testing.T) {
	t.Parallel()
	lib := newLibrary(t, libOpts{})
	off := offline.New(offline.Options{Places: placeFinder{}, Tools: lib.reg.Specs()})
	for _, cfg := range []Config{{ConfirmCallBelow: 1.5}, {ConfirmCallBelow: -0.1}, {OfferToolsBelow: 2}} {
		cfg.Tools, cfg.Grounding, cfg.GroundingOptions = lib.reg, off.Grounding(), grounding.DefaultOptions()
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "not in [0, 1]") {
			t.Errorf("%+v: err %v", cfg.ConfirmCallBelow, err)
		}
	}
}

// The reading is of grounding's call: when the chat model writes the call
// instead, nothing is said about its call confidence and nothing is asked.
func TestACallTheChatModelWritesHasNoReading(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		reuse   ReuseCall
		reading bool
	}{{ReuseNever, false}, {ReuseAlways, true}} {
		t.Run(string(tc.reuse), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, route: grounding.RouteThreshold, confirmBelow: 0.01,
				reuse: tc.reuse, readings: map[string]grounding.CallReading{"Calculator": unsureCalc}, callBelow: 0.8})
			rec, asked := runAnswering(t, h.ag, Request{Text: calcQuery}, "Calculator")
			if tc.reading {
				if len(asked) != 1 || asked[0].Kind != ConfirmCall || rec.CallReading == nil || rec.Call == nil {
					t.Fatalf("grounding's doubtful call: asked %+v, reading %+v", asked, rec.CallReading)
				}
				return
			}
			if len(asked) != 0 || rec.CallReading != nil || rec.Emission == nil || rec.Emission.Reading != nil || rec.Call == nil {
				t.Errorf("the chat model's call: asked %+v, reading %+v, emission %+v", asked, rec.CallReading, rec.Emission)
			}
			if rec.Grounding.Tools[0].Reading == nil {
				t.Error("grounding's own score lost its reading")
			}
		})
	}
}

// When the chat model said no tool is needed, it answers: nothing is
// offered, however unsure grounding's numbers are.
func TestNoOfferWhenTheChatModelSaidNo(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: llm.ServerOpenAI, route: grounding.RouteModel, confirmBelow: 0.5, offerBelow: 1,
		script: map[reqKind]func(modelRequest) reply{kindRoute: func(r modelRequest) reply { return yesNo(t, r, false) }}})
	evs, rec := h.ask(Request{Text: "give me all the moons of jupiter"})
	if n := len(eventsOf[ConfirmationNeeded](evs)); n != 0 || rec.Confirmation != nil || rec.AnsweredBy != "model" {
		t.Errorf("asked %d, confirmation %+v, answered by %q", n, rec.Confirmation, rec.AnsweredBy)
	}
}
