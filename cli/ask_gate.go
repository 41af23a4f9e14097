package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/tools"
)

// The gate's questions beyond the tool question (confirmTool) and the
// question before a tool that may change something (confirmRun): a call
// read with doubts, and the closest tools when grounding was unsure that
// none is needed. Off a terminal nobody can answer, so nothing gear is
// unsure of runs: the note says why and how to run it (--yes, or the
// exact call), and the turn exits 1 like the tool question's.

// interactive says whether a question can be asked and answered.
func (a *app) interactive() bool {
	return a.deps.IsTerminal && a.deps.Stdin != nil && a.deps.StdinIsTerminal
}

// confirmCall asks whether to run a call whose call confidence is under
// agent.confirm_call_below: "run Convert(5 * 0.3048 / 0.01)? [y/N]",
// the prober's doubts listed above.
func (a *app) confirmCall(ctx context.Context, c agent.Confirmation) (string, error) {
	w := a.deps.Stderr
	cand := c.Candidates[0]
	call := callShown(cand.Call, cand.Tool)
	conf, doubts := readingParts(cand.Reading)
	if !a.interactive() {
		why := ""
		if len(doubts) > 0 {
			why = ": " + strings.Join(doubts, "; ")
		}
		also := ""
		if c.Effect != "" {
			// One question covered both: say both reasons.
			also = fmt.Sprintf("; %s is not read-only either (it %s, from %s)", sanitize.Line(cand.Tool),
				effectWords(tools.Effect(c.Effect)), sanitize.Line(c.Source))
		}
		fmt.Fprintf(w, "note: gear is only %s sure it read %s right (below agent.confirm_call_below, %s%s)%s, so it was not run; run again with --yes to run it\n",
			conf, call, pct(c.Threshold), why, also)
		return agent.NoTool, nil
	}
	fmt.Fprintf(w, "gear is only %s sure it read your question right (it asks under %s)", conf, pct(c.Threshold))
	if len(doubts) == 0 {
		fmt.Fprintln(w, ".")
	} else {
		fmt.Fprintln(w, ":")
		for _, d := range doubts {
			fmt.Fprintln(w, "  - "+d)
		}
	}
	if c.Effect != "" {
		fmt.Fprintf(w, "%s is not read-only: it %s (from %s).\n", sanitize.Line(cand.Tool), effectWords(tools.Effect(c.Effect)), sanitize.Line(c.Source))
	}
	line, err := a.promptLine(ctx, "run %s? [y/N] (ctrl+c leaves): ", call)
	if err != nil {
		return "", err
	}
	switch strings.ToLower(line) {
	case "y", "yes":
		return cand.Tool, nil
	}
	return agent.NoTool, nil
}

// offerTools offers the closest tools when grounding chose none, unsure,
// for a request for information: a number runs one; off a terminal the
// exact gear ask command of each is printed.
func (a *app) offerTools(ctx context.Context, c agent.Confirmation, canAnswer bool) (string, error) {
	w := a.deps.Stderr
	if !a.interactive() {
		fmt.Fprintf(w, "note: gear is not sure this needs a tool (no tool: %s; it offers tools under %s), so none was run; the closest, to run one:\n",
			pct(c.NoneConfidence), pct(c.Threshold))
		for _, cand := range c.Candidates {
			run := "gear tools lists how to call it"
			if cand.Call != "" {
				run = "gear ask " + shellQuote("/GEAR "+sanitize.Line(cand.Call))
			}
			fmt.Fprintf(w, "  %s %s: %s\n", sanitize.Line(cand.Tool), pct(cand.Confidence), run)
		}
		return agent.NoTool, nil
	}
	fmt.Fprintf(w, "I'm not sure this needs a tool (no tool: %s). Closest:\n", pct(c.NoneConfidence))
	listCandidates(w, c.Candidates, "%s")
	rest := "Enter answers without a tool"
	if !canAnswer {
		rest = "Enter runs none (rephrase and ask again)"
	}
	line, err := a.promptLine(ctx, "A number runs that tool; %s (ctrl+c leaves): ", rest)
	if err != nil {
		return "", err
	}
	if tool, ok := pickedCandidate(line, c.Candidates); ok {
		return tool, nil
	}
	return agent.NoTool, nil
}

// readingParts are a call reading's confidence and doubts for printing.
func readingParts(r *grounding.CallReading) (string, []string) {
	if r == nil {
		return "", nil
	}
	var doubts []string
	for _, d := range r.Doubts {
		if d = sanitize.Line(d); d != "" {
			doubts = append(doubts, d)
		}
	}
	return pct(r.Confidence), doubts
}

// readingSuffix is " · call 45%", or nothing when there is no reading:
// gear never invents a call confidence.
func readingSuffix(r *grounding.CallReading) string {
	if r == nil {
		return ""
	}
	return " · call " + pct(r.Confidence)
}

// maxCallShown bounds a call on its line; a longer one keeps its head and
// its closing parenthesis.
const maxCallShown = 80

// callShown is a call on one sanitised line, cut to maxCallShown
// characters: "Search(\"a very long que…\")". An empty call is the
// tool's name.
func callShown(call, tool string) string {
	s := sanitize.Line(call)
	if s == "" {
		return sanitize.Line(tool)
	}
	r := []rune(s)
	if len(r) <= maxCallShown {
		return s
	}
	tail := ""
	switch {
	case strings.HasSuffix(s, "\")"):
		tail = "\")"
	case strings.HasSuffix(s, ")"):
		tail = ")"
	}
	return string(r[:maxCallShown-1-len(tail)]) + "…" + tail
}

// shellQuote quotes s for a POSIX shell, so the printed command runs as
// shown; a single quote inside becomes the four characters ' \ ' '.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// confirmTool answers the confidence gate: interactively on a terminal,
// else without a tool (--yes would have run the top candidate).
func (a *app) confirmTool(ctx context.Context, c agent.Confirmation, canAnswer bool) (string, error) {
	w := a.deps.Stderr
	top := c.Candidates[0]
	if !a.interactive() {
		fmt.Fprintf(w, "note: grounding is only %s sure of %s (below agent.confirm_below, %s), so no tool was run; run again with --yes to use it\n",
			pct(top.Confidence), top.Tool, pct(c.Threshold))
		return agent.NoTool, nil
	}
	fmt.Fprintf(w, "Grounding is only %s sure. Which tool?\n", pct(top.Confidence))
	listCandidates(w, c.Candidates, "(%s)")
	none := "n answers without a tool"
	if !canAnswer {
		none = "n cancels"
	}
	line, err := a.promptLine(ctx, "Enter runs 1, a number picks another, %s (ctrl+c leaves): ", none)
	if err != nil {
		return "", err
	}
	if tool, ok := pickedCandidate(line, c.Candidates); ok {
		return tool, nil
	}
	switch {
	case line == "":
		return top.Tool, nil
	case !canAnswer:
		return "", errPromptCancelled
	}
	return agent.NoTool, nil
}

// confirmRun answers the question asked before a tool that is not
// read-only runs: on a terminal the user says yes once, always (remembered
// in agent.allowed_tools) or no; elsewhere it does not run (--yes would
// have answered yes).
func (a *app) confirmRun(ctx context.Context, ag *agent.Agent, c agent.Confirmation) (string, error) {
	tool, effect := c.Candidates[0].Tool, tools.Effect(c.Effect)
	if !a.interactive() {
		fmt.Fprintf(a.deps.Stderr, "note: %s is not read-only (%s, from %s), so it was not run; run again with --yes, or add it to agent.allowed_tools\n",
			tool, effectWords(effect), sanitize.Line(c.Source))
		return agent.NoTool, nil
	}
	if call := c.Candidates[0].Call; call != "" {
		fmt.Fprintln(a.deps.Stderr, "gear would run "+callShown(call, tool))
	}
	answer, err := a.askRun(ctx, tool, effect, c.Source)
	if err != nil {
		return "", err
	}
	switch answer {
	case runOnce:
		return tool, nil
	case runAlways:
		if err := a.rememberAllowed(tool); err != nil {
			fmt.Fprintf(a.deps.Stderr, "note: %s runs this time, but could not be remembered: %s\n", tool, oneLine(err.Error()))
		}
		ag.Allow(tool)
		return tool, nil
	}
	return agent.NoTool, nil
}

// listCandidates prints a question's numbered candidates, each with its
// confidence (in confFormat, e.g. "(%s)") and, when it has one, its call
// and call confidence.
func listCandidates(w io.Writer, cands []agent.Candidate, confFormat string) {
	for i, cand := range cands {
		line := fmt.Sprintf("  %d. %s "+confFormat, i+1, sanitize.Line(cand.Tool), pct(cand.Confidence))
		if cand.Call != "" {
			line += "  " + callShown(cand.Call, cand.Tool) + readingSuffix(cand.Reading)
		}
		fmt.Fprintln(w, line)
	}
}

// pickedCandidate is the candidate a typed number names.
func pickedCandidate(line string, cands []agent.Candidate) (string, bool) {
	if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(cands) {
		return cands[n-1].Tool, true
	}
	return "", false
}
