package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// readingProber is the offline engine's prober that says, from a script,
// how well it read each tool's call: the gate's tests choose the call
// confidence (the offline engine's own reading is tested with the engine).
type readingProber struct {
	grounding.Prober
	readings map[string]grounding.CallReading
}

func (p readingProber) ReadCall(ctx context.Context, spec tools.Spec, q string) (string, *grounding.CallReading, error) {
	text, err := p.Call(ctx, spec, q)
	r := p.readings[spec.Name]
	return text, &r, err
}

// plainProber hides whatever reading its prober gives, as a model prober
// gives none.
type plainProber struct{ grounding.Prober }

var doubtfulCalc = map[string]grounding.CallReading{"Calculator": {Confidence: 0.45, Doubts: []string{"the quantity 'dozen' found no place"}}}

// gateAsk runs one gear ask turn offline on the built-in library, the
// prober giving readings (nil: none), and returns stdout, stderr and the
// exit code. stdin, when set, is a terminal the user answers on.
func gateAsk(t *testing.T, readings map[string]grounding.CallReading, offerBelow float64, query, stdin string, yes, asJSON bool) (string, string, int) {
	t.Helper()
	a := chatApp(t, nil, nil, t.TempDir(), true)
	var stdout, stderr bytes.Buffer
	a.deps.Stdout, a.deps.Stderr = &stdout, &stderr
	if stdin != "" {
		a.deps.Stdin, a.deps.IsTerminal, a.deps.StdinIsTerminal = strings.NewReader(stdin), true, true
	}
	reg, err := a.registry()
	if err != nil {
		t.Fatal(err)
	}
	eng := a.offlineEngine(reg.Specs()).Grounding()
	eng.Prober = plainProber{eng.Prober}
	if readings != nil {
		eng.Prober = readingProber{Prober: eng.Prober, readings: readings}
	}
	ag, err := agent.New(agent.Config{Tools: reg, Grounding: eng, GroundingOptions: a.groundingOptions(),
		ConfirmBelow: 0.01, ConfirmCallBelow: 0.8, OfferToolsBelow: offerBelow})
	if err != nil {
		t.Fatal(err)
	}
	err = a.askTurn(context.Background(), ag, nil, agent.Request{Text: query, Yes: yes}, askOptions{text: query, yes: yes, json: asJSON}, false)
	code := ExitOK
	if err != nil {
		code = exitCode(err)
		if se, ok := err.(silentError); ok {
			code = exitCode(se.err)
		}
	}
	return stdout.String(), stderr.String(), code
}

func TestAskCallGate(t *testing.T) {
	t.Parallel()
	const q = "what is 17 * 23"
	for _, tc := range []struct {
		name     string
		readings map[string]grounding.CallReading
		stdin    string
		yes      bool
		code     int
		stdout   []string
		stderr   []string
		absent   []string
	}{
		{name: "sure call: both confidences", readings: map[string]grounding.CallReading{"Calculator": {Confidence: 0.95}},
			stdout: []string{"391\n— Calculator(17 * 23) → 391 · tool ", " · call 95% · grounding: offline engine"}},
		{name: "no reading: no call confidence", stdout: []string{"391\n— Calculator(17 * 23) → 391 · tool ", "% · grounding: offline engine"},
			absent: []string{"call "}},
		{name: "unsure, nobody to ask", readings: doubtfulCalc, code: ExitFailure,
			stdout: []string{"Calculator(17 * 23) was not run", "— Calculator(17 * 23) (not run) · tool ", " · call 45% · grounding"},
			stderr: []string{"note: gear is only 45% sure it read Calculator(17 * 23) right (below agent.confirm_call_below, 80%: the quantity 'dozen' found no place), so it was not run; run again with --yes to run it\n"},
			absent: []string{"391"}},
		{name: "unsure, --yes", readings: doubtfulCalc, yes: true, stdout: []string{"391\n— Calculator(17 * 23) → 391 · tool ", " · call 45% · grounding: offline engine · call run with --yes\n"}},
		{name: "unsure, asked, yes", readings: doubtfulCalc, stdin: "y\n",
			stdout: []string{"391\n", " · call 45% · grounding: offline engine · call run: you said yes\n"},
			stderr: []string{"gear is only 45% sure it read your question right (it asks under 80%):\n  - the quantity 'dozen' found no place\nrun Calculator(17 * 23)? [y/N]"}},
		{name: "unsure, asked, no", readings: doubtfulCalc, stdin: "\n", code: ExitFailure, stdout: []string{"was not run"}, absent: []string{"391"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := gateAsk(t, tc.readings, 0, q, tc.stdin, tc.yes, false)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stdout %q, stderr %q", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout %q lacks %q", stdout, w)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(stdout, w) {
					t.Errorf("stdout %q has %q", stdout, w)
				}
			}
		})
	}
}

func TestAskJSONCarriesTheCallReading(t *testing.T) {
	t.Parallel()
	type record struct {
		CallReading *grounding.CallReading `json:"call_reading"`
		Emission    struct {
			Call        string                 `json:"call"`
			CallReading *grounding.CallReading `json:"call_reading"`
		} `json:"emission"`
		Permission *agent.Confirmation `json:"permission"`
		Confidence float64             `json:"confidence"`
		Answer     string              `json:"answer"`
	}
	stdout, _, code := gateAsk(t, doubtfulCalc, 0, "what is 17 * 23", "", false, true)
	var rec record
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != ExitFailure || rec.CallReading == nil || rec.CallReading.Confidence != 0.45 || rec.Emission.CallReading == nil ||
		rec.Emission.Call != "Calculator(17 * 23)" || rec.Permission == nil || rec.Permission.Kind != agent.ConfirmCall ||
		rec.Permission.Chosen != agent.NoTool || rec.Confidence <= 0 {
		t.Errorf("exit %d, record %+v", code, rec)
	}
	stdout, _, code = gateAsk(t, nil, 0, "what is 17 * 23", "", false, true)
	if code != ExitOK || strings.Contains(stdout, "call_reading") {
		t.Errorf("without a reading: exit %d, %s", code, stdout)
	}
}

// An unsure "no tool" on a request for information: off a terminal the
// closest tools are printed with the exact command to run each, exit 1.
func TestAskOffersTheClosestTools(t *testing.T) {
	t.Parallel()
	const q = "give me all the moons of jupiter"
	stdout, stderr, code := gateAsk(t, nil, 1, q, "", false, false)
	if code != ExitFailure || !strings.Contains(stderr, "note: gear is not sure this needs a tool (no tool: ") ||
		!strings.Contains(stderr, "gear ask '/GEAR ") || !strings.Contains(stdout, "I'm not sure this needs a tool. Closest: ") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	// The printed command is the candidate's exact call, quoted for the shell.
	for _, line := range strings.Split(stderr, "\n") {
		if i := strings.Index(line, "gear ask '"); i >= 0 && !strings.HasSuffix(line, ")'") {
			t.Errorf("command not quoted whole: %q", line)
		}
	}
	// On a terminal, Enter takes none.
	stdout, stderr, code = gateAsk(t, nil, 1, q, "\n", false, false)
	if code != ExitFailure || !strings.Contains(stderr, "  1. ") || !strings.Contains(stderr, "A number runs that tool") {
		t.Errorf("asked: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	// Sure enough that no tool is needed: nothing offered.
	_, stderr, _ = gateAsk(t, nil, 0.5, q, "", false, false)
	if strings.Contains(stderr, "Closest") || strings.Contains(stderr, "gear ask '") {
		t.Errorf("offered anyway: %s", stderr)
	}
}

func TestShellQuoteAndCallShown(t *testing.T) {
	t.Parallel()
	if got := shellQuote(`/GEAR Wiki("it's")`); got != `'/GEAR Wiki("it'\''s")'` {
		t.Errorf("shellQuote: %s", got)
	}
	long := `WikiSearch("` + strings.Repeat("x", 200) + `")`
	got := callShown(long, "WikiSearch")
	if n := len([]rune(got)); n != maxCallShown || !strings.HasSuffix(got, `…")`) || !strings.HasPrefix(got, `WikiSearch("xx`) {
		t.Errorf("callShown: %d runes, %q", n, got)
	}
	if got := callShown("Calc(1\x1b[31m)", "Calc"); strings.ContainsRune(got, '\x1b') {
		t.Errorf("not sanitised: %q", got)
	}
	if got := callShown("", "Calc"); got != "Calc" {
		t.Errorf("empty call: %q", got)
	}
}

// One question covers a doubtful call of a tool that is not read-only:
// off a terminal, the note gives both reasons.
func TestCallNoteNamesTheEffectToo(t *testing.T) {
	t.Parallel()
	a := chatApp(t, nil, nil, t.TempDir(), true)
	var stderr bytes.Buffer
	a.deps.Stderr = &stderr
	c := agent.Confirmation{Kind: agent.ConfirmCall, Threshold: 0.8, Effect: "writes", Source: "mcp:files",
		Candidates: []agent.Candidate{{Tool: "files.save", Call: "files.save(2, 3)", Reading: &grounding.CallReading{Confidence: 0.3}}}}
	got, err := a.confirmCall(context.Background(), c)
	want := "note: gear is only 30% sure it read files.save(2, 3) right (below agent.confirm_call_below, 80%); " +
		"files.save is not read-only either (it may change things, from mcp:files), so it was not run; run again with --yes to run it\n"
	if err != nil || got != agent.NoTool || stderr.String() != want {
		t.Errorf("answer %q, %v\nnote %q\nwant %q", got, err, stderr.String(), want)
	}
}

// The tool question lists each candidate's call and, when there is one,
// its call confidence, so one question shows both.
func TestToolQuestionShowsCalls(t *testing.T) {
	t.Parallel()
	a := chatApp(t, nil, nil, t.TempDir(), true)
	var stderr bytes.Buffer
	a.deps.Stderr, a.deps.Stdin, a.deps.IsTerminal, a.deps.StdinIsTerminal = &stderr, strings.NewReader("2\n"), true, true
	c := agent.Confirmation{Threshold: 0.5, Candidates: []agent.Candidate{
		{Tool: "Calculator", Confidence: 0.49, Call: "Calculator(17 * 23)", Reading: &grounding.CallReading{Confidence: 0.97}},
		{Tool: "WikiSearch", Confidence: 0.29, Call: `WikiSearch("17 * 23")`}}}
	got, err := a.confirmTool(context.Background(), c, false)
	want := "  1. Calculator (49%)  Calculator(17 * 23) · call 97%\n  2. WikiSearch (29%)  WikiSearch(\"17 * 23\")\n"
	if err != nil || got != "WikiSearch" || !strings.Contains(stderr.String(), want) {
		t.Errorf("picked %q, %v\n%s\nwant it to contain\n%s", got, err, stderr.String(), want)
	}
}
