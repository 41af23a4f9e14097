package survey

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gear-chat/gear/store"
)

// answeredTools are the tools named in any response's answers: choices of
// the tools-used question and tool-specific question ids.
func (c *collector) answeredTools() []string {
	seen := map[string]bool{}
	for _, s := range c.sources {
		for _, r := range s.Dump.Surveys {
			var raw map[string]json.RawMessage
			if json.Unmarshal(r.Answers, &raw) != nil {
				continue
			}
			for id, v := range raw {
				if tool, ok := strings.CutPrefix(id, ToolQuestionPrefix); ok && tool != "" {
					seen[tool] = true
				}
				if id == QToolsUsed {
					var list []string
					if json.Unmarshal(v, &list) == nil {
						for _, t := range list {
							if t = strings.TrimSpace(t); t != "" {
								seen[t] = true
							}
						}
					}
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// response is a stored response with where it came from, for ordering.
type response struct {
	store.SurveyResponse
	source int
}

// later orders responses by completion, then source and id.
func later(a, b response) bool {
	if !a.Completed.Equal(b.Completed) {
		return a.Completed.After(b.Completed)
	}
	if a.source != b.source {
		return a.source > b.source
	}
	return a.ID > b.ID
}

// surveys fills the survey counts and the per-question summaries.
func (c *collector) surveys(rep *Report, q Questionnaire) {
	rep.Surveys = Surveys{OtherVersions: map[string]int{}, Rule: ruleSurveys}
	latest := map[string]response{}
	for i, s := range c.sources {
		for _, r := range s.Dump.Surveys {
			p := c.person(r.ParticipantID, i)
			if r.Version != q.Version {
				rep.Surveys.OtherVersions[r.Version]++
				continue
			}
			switch r.Status {
			case store.SurveyComplete:
				rep.Surveys.Complete++
				cand := response{r, i}
				if prev, ok := latest[p.ID]; !ok || later(cand, prev) {
					latest[p.ID] = cand
				}
				p.Survey = "complete"
			default:
				rep.Surveys.InProgress++
				if p.Survey == "none" {
					p.Survey = "in-progress"
				}
			}
		}
	}
	var answers []Answers
	for _, id := range c.order {
		if r, ok := latest[id]; ok {
			a, _ := q.Restore(r.Answers)
			answers = append(answers, a)
		}
	}
	rep.Surveys.Used = len(answers)
	for _, x := range q.Questions {
		rep.Questions = append(rep.Questions, summarize(x, answers))
	}
}

func summarize(x Question, all []Answers) QuestionSummary {
	s := QuestionSummary{ID: x.ID, Number: x.Number, Row: x.Row, Text: x.Text, Kind: x.Kind, Tool: x.Tool}
	var numbers []int
	yes := 0
	chosen := map[string]int{}
	for _, a := range all {
		v, ok := a[x.ID]
		if !ok {
			continue
		}
		s.Answered++
		switch v := v.(type) {
		case int:
			numbers = append(numbers, v)
		case bool:
			if v {
				yes++
			}
		case []string:
			for _, t := range v {
				chosen[t]++
			}
		case string:
			s.Answers = append(s.Answers, v)
		}
	}
	switch x.Kind {
	case KindRating, KindScore:
		d := Distribute(numbers, x.Min, x.Max)
		s.Distribution = &d
	case KindYesNo:
		p := NewProportion(yes, s.Answered)
		s.Yes = &p
	case KindChoice:
		s.Choices = []ChoiceCount{}
		for _, o := range x.Options {
			cc := ChoiceCount{Option: o, Count: chosen[o]}
			if s.Answered > 0 {
				cc.Share = float64(cc.Count) / float64(s.Answered)
			}
			s.Choices = append(s.Choices, cc)
		}
	}
	return s
}

// finish counts the participants and their shares once every source is
// read.
func (c *collector) finish(rep *Report) {
	rep.Participants.N = len(c.order)
	rep.Participants.Rule = ruleParticipants
	ids := append([]string(nil), c.order...)
	sort.Strings(ids)
	rep.Participants.List = []Participant{}
	for _, id := range ids {
		p := c.people[id]
		rep.Participants.List = append(rep.Participants.List, *p)
		if p.Survey == "complete" {
			rep.Participants.WithSurvey++
		}
	}
	for i := range rep.ToolUsage {
		if rep.Participants.N > 0 {
			rep.ToolUsage[i].ParticipantShare = float64(rep.ToolUsage[i].Participants) / float64(rep.Participants.N)
		}
	}
	if rep.ToolUsage == nil {
		rep.ToolUsage = []ToolUse{}
	}
	if rep.ToolSatisfaction == nil {
		rep.ToolSatisfaction = []ToolSatisfaction{}
	}
}

// question finds a question's summary.
func (r Report) question(id string) (QuestionSummary, bool) {
	for _, q := range r.Questions {
		if q.ID == id {
			return q, true
		}
	}
	return QuestionSummary{}, false
}

// headlines computes the paper's figures (Appendix G) the way the rules
// say.
func headlines(r Report) []Headline {
	var out []Headline
	agree := Headline{ID: "tools_more_useful", Claim: "Agree the tools make the chatbot more useful",
		Paper: "76%", PaperValue: 0.76,
		Rule: fmt.Sprintf("\"agree\" = question 3 (\"more helpful than the previous one\") rated %d or more on 0-10, "+
			"over the complete questionnaires that answer it; 95%% Wilson interval", AgreeAt)}
	if q, ok := r.question(QMoreHelpful); ok && q.Distribution != nil {
		n := 0
		for _, b := range q.Distribution.Histogram {
			if b.Low >= AgreeAt {
				n += b.Count
			}
		}
		agree.set(NewProportion(n, q.Distribution.N))
	}
	out = append(out, agree)

	grounded := Headline{ID: "grounded_right", Claim: "Queries grounded to the right tool",
		Paper: "more than 90%", PaperValue: 0.90, Rule: r.Grounding.Rule}
	grounded.set(r.Grounding.Proportion)
	out = append(out, grounded)

	satisfied := Headline{ID: "answered_satisfactorily", Claim: "Questions answered to the user's satisfaction",
		Paper: "78.4%", PaperValue: 0.784,
		Rule: "thumbs up / (thumbs up + thumbs down) over rated gear turns (chat or direct mode); 95% Wilson interval"}
	satisfied.set(r.Satisfaction.Gear)
	out = append(out, satisfied)

	s := r.Satisfaction
	increase := Headline{ID: "increase_over_baseline", Claim: "More satisfaction than the plain chatbot",
		Paper: "16.9%", PaperValue: 0.169, Value: s.Difference.Value, Low: s.Difference.Low, High: s.Difference.High,
		N: s.Gear.N + s.Baseline.N,
		Rule: "gear satisfaction − baseline satisfaction, in percentage points (the paper's 16.9% read as " +
			"78.4% − 61.5%); the relative increase is in the detail; 95% Newcombe hybrid score interval"}
	if s.Gear.N > 0 && s.Baseline.N > 0 {
		increase.Detail = fmt.Sprintf("gear %.1f%% vs baseline %.1f%%; relative increase %.1f%%",
			100*s.Gear.Ratio, 100*s.Baseline.Ratio, 100*s.RelativeIncrease)
	} else {
		increase.N = 0
	}
	out = append(out, increase)

	var eligible []ToolSatisfaction
	for _, t := range r.ToolSatisfaction {
		if t.N >= MinToolRatings {
			eligible = append(eligible, t)
		}
	}
	toolRule := fmt.Sprintf("thumbs up / rated over gear turns in which the tool ran, among tools with at least %d "+
		"rated turns; 95%% Wilson interval", MinToolRatings)
	best := Headline{ID: "best_tool", Claim: "Highest per-tool satisfaction", Paper: "Time 100%", PaperValue: 1,
		Rule: "the highest " + toolRule}
	worst := Headline{ID: "worst_tool", Claim: "Lowest per-tool satisfaction", Paper: "Machine Translation 50.5%",
		PaperValue: 0.505, Rule: "the lowest " + toolRule}
	if len(eligible) > 0 {
		// ToolSatisfaction is sorted by ratio, highest first.
		b, w := eligible[0], eligible[len(eligible)-1]
		best.set(b.Proportion)
		best.Detail = b.Tool
		worst.set(w.Proportion)
		worst.Detail = w.Tool
	}
	out = append(out, best, worst)

	popular := Headline{ID: "popular_tools", Claim: "Tools used by more than half of the users",
		Paper: "Image Generation and Weather Search, more than 50%", PaperValue: 0.5,
		Rule: "share of the complete questionnaires answering question 13 (\"what tools have you used?\") that " +
			"choose the tool; the value is the most chosen tool's share; the detail lists every tool chosen by more than half"}
	if q, ok := r.question(QToolsUsed); ok && q.Answered > 0 {
		choices := append([]ChoiceCount(nil), q.Choices...)
		sort.SliceStable(choices, func(i, j int) bool { return choices[i].Count > choices[j].Count })
		var names []string
		for _, c := range choices {
			if 2*c.Count > q.Answered {
				names = append(names, fmt.Sprintf("%s %.1f%%", c.Option, 100*c.Share))
			}
		}
		if len(choices) > 0 {
			popular.set(NewProportion(choices[0].Count, q.Answered))
		}
		popular.Detail = strings.Join(names, ", ")
		if popular.Detail == "" {
			popular.Detail = "no tool was chosen by more than half"
		}
	}
	return append(out, popular)
}

func (h *Headline) set(p Proportion) { h.Value, h.N, h.Low, h.High = p.Ratio, p.N, p.Low, p.High }
