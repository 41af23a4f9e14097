package survey

import (
	"sort"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/store"
)

// Source is one history the report reads: a participant's database or an
// export of one. Label names it in the report (a path; anonymized reports
// replace it).
type Source struct {
	Label string
	Dump  store.Dump
}

// Report is a study's figures over one or many histories. Every figure
// says how it was computed in a Rule; the JSON keys are stable.
type Report struct {
	Questionnaire    string             `json:"questionnaire_version"`
	Anonymized       bool               `json:"anonymized"`
	Sources          []string           `json:"sources"`
	Participants     Participants       `json:"participants"`
	Turns            Turns              `json:"turns"`
	ToolUsage        []ToolUse          `json:"tool_usage"`
	ToolSatisfaction []ToolSatisfaction `json:"tool_satisfaction"`
	// ToolSatisfactionRule says how the per-tool ratios are computed.
	ToolSatisfactionRule string            `json:"tool_satisfaction_rule"`
	Grounding            Grounding         `json:"grounding_accuracy"`
	Satisfaction         Satisfaction      `json:"satisfaction"`
	Surveys              Surveys           `json:"surveys"`
	Questions            []QuestionSummary `json:"questions"`
	Headlines            []Headline        `json:"headlines"`
}

// Participants counts the people in the study.
type Participants struct {
	N int `json:"n"`
	// ByPhase counts participants with at least one conversation in each
	// study phase ("none" for conversations outside a study).
	ByPhase map[string]int `json:"by_phase"`
	// WithSurvey counts participants with a complete questionnaire.
	WithSurvey int    `json:"with_complete_survey"`
	Rule       string `json:"rule"`
	// List has a row per participant; anonymized reports leave it out.
	List []Participant `json:"list,omitempty"`
}

// Participant is one participant's row.
type Participant struct {
	ID            string `json:"id"`
	BaselineTurns int    `json:"baseline_turns"`
	GearTurns     int    `json:"gear_turns"`
	Rated         int    `json:"rated_turns"`
	// Survey is "complete", "in-progress" or "none".
	Survey string `json:"survey"`
}

// Turns counts turns.
type Turns struct {
	N       int            `json:"n"`
	ByMode  map[string]int `json:"by_mode"`
	ByPhase map[string]int `json:"by_phase"`
	// WithTool counts turns in which a tool ran.
	WithTool int `json:"with_tool"`
	// Rated counts thumbs up or down; WrongTool counts "wrong tool" flags.
	Rated     int `json:"rated"`
	WrongTool int `json:"wrong_tool_flags"`
}

// ToolUse is one tool's share of usage.
type ToolUse struct {
	Tool  string  `json:"tool"`
	Turns int     `json:"turns"`
	Share float64 `json:"share"`
	// Participants counts the participants who had it run at least once;
	// ParticipantShare divides by all participants.
	Participants     int     `json:"participants"`
	ParticipantShare float64 `json:"participant_share"`
}

// ToolSatisfaction is one tool's thumbs-up ratio.
type ToolSatisfaction struct {
	Tool string `json:"tool"`
	Proportion
}

// Grounding is how often grounding's choice was right, by the users'
// flags.
type Grounding struct {
	Proportion
	Wrong int    `json:"wrong"`
	Rule  string `json:"rule"`
}

// Satisfaction compares the two arms.
type Satisfaction struct {
	Baseline   Proportion `json:"baseline"`
	Gear       Proportion `json:"gear"`
	Difference Difference `json:"difference"`
	// RelativeIncrease is (gear − baseline) / baseline.
	RelativeIncrease float64 `json:"relative_increase"`
	Rule             string  `json:"rule"`
}

// Surveys counts questionnaire responses.
type Surveys struct {
	// Used counts the responses the question figures come from: each
	// participant's latest complete response to this version.
	Used       int `json:"used"`
	Complete   int `json:"complete"`
	InProgress int `json:"in_progress"`
	// OtherVersions counts responses to other questionnaire versions,
	// which are not analysed.
	OtherVersions map[string]int `json:"other_versions"`
	Rule          string         `json:"rule"`
}

// QuestionSummary is one question's answers.
type QuestionSummary struct {
	ID       string `json:"id"`
	Number   int    `json:"number"`
	Row      int    `json:"table12_row"`
	Text     string `json:"text"`
	Kind     Kind   `json:"kind"`
	Tool     string `json:"tool,omitempty"`
	Answered int    `json:"answered"`
	// Distribution is a rating's or score's; Yes a yes/no question's;
	// Choices a choice question's; Answers an open-ended question's
	// (left out when anonymized).
	Distribution *Distribution `json:"distribution,omitempty"`
	Yes          *Proportion   `json:"yes,omitempty"`
	Choices      []ChoiceCount `json:"choices,omitempty"`
	Answers      []string      `json:"answers,omitempty"`
}

// ChoiceCount is how many respondents chose an option.
type ChoiceCount struct {
	Option string  `json:"option"`
	Count  int     `json:"count"`
	Share  float64 `json:"share"`
}

// Headline is one of the paper's figures computed from the study, with
// the rule used.
type Headline struct {
	ID    string `json:"id"`
	Claim string `json:"claim"`
	// Paper is the paper's figure as it states it; PaperValue as a number.
	Paper      string  `json:"paper"`
	PaperValue float64 `json:"paper_value"`
	Value      float64 `json:"value"`
	N          int     `json:"n"`
	Low        float64 `json:"ci_low"`
	High       float64 `json:"ci_high"`
	// Detail names what the value is about (a tool, a list of tools).
	Detail string `json:"detail,omitempty"`
	Rule   string `json:"rule"`
}

// AgreeAt is the rating from which a 0-10 answer counts as agreement.
const AgreeAt = 6

// MinToolRatings is how many rated turns a tool needs to be named the
// best or worst tool.
const MinToolRatings = 10

// The rules, as the report states them.
const (
	ruleParticipants = "a participant is a participant id; a source's records without one belong to the source's only participant id, or, when it has none or several, count as one participant per source"
	ruleArms         = "baseline = turns answered in baseline mode (the comparison chatbot, no tools); gear = turns in chat or direct mode; a turn's recorded mode is what the participant got, whatever the phase's default"
	ruleSatisfaction = "thumbs up / (thumbs up + thumbs down) over each arm's rated turns; " + ruleArms + "; 95% intervals: Wilson score for each ratio, Newcombe's hybrid score (method 10) for the difference"
	ruleGrounding    = "rated gear turns in which grounding ran (thumbs up or down, or flagged \"wrong tool\"): not flagged / all; 95% Wilson interval"
	ruleToolSat      = "thumbs up / rated, over gear turns in which the tool ran; 95% Wilson interval"
	ruleSurveys      = "each participant's latest complete response to this questionnaire version; unfinished responses are counted, not analysed"
)

// Compute builds the report from the sources. tools is the tool library
// the questionnaire asks about; tools named in the answers are added, so
// a study whose participants had other tools still reports them.
func Compute(sources []Source, tools []string) Report {
	c := newCollector(sources)
	q := New(append(append([]string(nil), tools...), c.answeredTools()...))
	rep := Report{Questionnaire: q.Version, Sources: make([]string, len(sources)), ToolSatisfactionRule: ruleToolSat}
	for i, s := range sources {
		rep.Sources[i] = s.Label
	}
	c.turns(&rep)
	c.surveys(&rep, q)
	c.finish(&rep)
	rep.Headlines = headlines(rep)
	return rep
}

// Anonymize returns the report without ids, free text or file names:
// sources are numbered, the participant list and the open-ended answers
// are dropped (their counts stay).
func (r Report) Anonymize() Report {
	out := r
	out.Anonymized = true
	out.Sources = make([]string, len(r.Sources))
	for i := range r.Sources {
		out.Sources[i] = "source " + strconv.Itoa(i+1)
	}
	out.Participants.List = nil
	out.Questions = make([]QuestionSummary, len(r.Questions))
	for i, x := range r.Questions {
		x.Answers = nil
		out.Questions[i] = x
	}
	return out
}

// collector gathers per-participant facts across sources.
type collector struct {
	sources []Source
	people  map[string]*Participant
	order   []string
	// sole is each source's only participant id ("" when it has none or
	// several): a person's own history records conversations before the
	// id is made (gear ask, the chat before a study), and those are theirs.
	sole []string
}

func newCollector(sources []Source) *collector {
	c := &collector{sources: sources, people: map[string]*Participant{}, sole: make([]string, len(sources))}
	for i, s := range sources {
		ids := map[string]bool{}
		for _, conv := range s.Dump.Conversations {
			if id := strings.TrimSpace(conv.ParticipantID); id != "" {
				ids[id] = true
			}
		}
		for _, r := range s.Dump.Surveys {
			if id := strings.TrimSpace(r.ParticipantID); id != "" {
				ids[id] = true
			}
		}
		if len(ids) == 1 {
			for id := range ids {
				c.sole[i] = id
			}
		}
	}
	return c
}

// person returns the participant for an id recorded in source i.
func (c *collector) person(id string, source int) *Participant {
	key := strings.TrimSpace(id)
	if key == "" {
		key = c.sole[source]
	}
	if key == "" {
		key = "(unnamed in source " + strconv.Itoa(source+1) + ")"
	}
	p, ok := c.people[key]
	if !ok {
		p = &Participant{ID: key, Survey: "none"}
		c.people[key] = p
		c.order = append(c.order, key)
	}
	return p
}

func isBaseline(m store.Mode) bool { return m == store.ModeBaseline }

// turns fills participants, turns, tool usage, per-tool satisfaction,
// grounding accuracy and satisfaction by arm.
func (c *collector) turns(rep *Report) {
	rep.Turns = Turns{ByMode: map[string]int{}, ByPhase: map[string]int{}}
	byPhase := map[string]map[string]bool{}
	toolTurns := map[string]int{}
	toolPeople := map[string]map[string]bool{}
	type counts struct{ up, n int }
	toolRated := map[string]*counts{}
	var arms [2]counts // 0 baseline, 1 gear
	var verdicts, wrong int
	for i, s := range c.sources {
		for _, conv := range s.Dump.Conversations {
			phase := PhaseOf(conv.Conversation)
			p := c.person(conv.ParticipantID, i)
			if byPhase[phase] == nil {
				byPhase[phase] = map[string]bool{}
			}
			byPhase[phase][p.ID] = true
			for _, t := range conv.Turns {
				rep.Turns.N++
				rep.Turns.ByMode[string(t.Mode)]++
				rep.Turns.ByPhase[phase]++
				arm := 1
				if isBaseline(t.Mode) {
					arm = 0
					p.BaselineTurns++
				} else {
					p.GearTurns++
				}
				if t.Tool != "" {
					rep.Turns.WithTool++
					toolTurns[t.Tool]++
					if toolPeople[t.Tool] == nil {
						toolPeople[t.Tool] = map[string]bool{}
					}
					toolPeople[t.Tool][p.ID] = true
				}
				r := t.Rating
				if r == nil {
					continue
				}
				if r.WrongTool {
					rep.Turns.WrongTool++
				}
				if arm == 1 && GroundingRan(t) && (r.Score != store.ScoreNone || r.WrongTool) {
					verdicts++
					if r.WrongTool {
						wrong++
					}
				}
				if r.Score == store.ScoreNone {
					continue
				}
				rep.Turns.Rated++
				p.Rated++
				up := 0
				if r.Score == store.ScoreUp {
					up = 1
				}
				arms[arm].n++
				arms[arm].up += up
				if arm == 1 && t.Tool != "" {
					if toolRated[t.Tool] == nil {
						toolRated[t.Tool] = &counts{}
					}
					toolRated[t.Tool].n++
					toolRated[t.Tool].up += up
				}
			}
		}
	}
	rep.Participants.ByPhase = map[string]int{}
	for phase, set := range byPhase {
		rep.Participants.ByPhase[phase] = len(set)
	}
	for tool, n := range toolTurns {
		rep.ToolUsage = append(rep.ToolUsage, ToolUse{Tool: tool, Turns: n,
			Share: float64(n) / float64(rep.Turns.WithTool), Participants: len(toolPeople[tool])})
	}
	sort.Slice(rep.ToolUsage, func(i, j int) bool {
		a, b := rep.ToolUsage[i], rep.ToolUsage[j]
		return a.Turns > b.Turns || a.Turns == b.Turns && a.Tool < b.Tool
	})
	for tool, k := range toolRated {
		rep.ToolSatisfaction = append(rep.ToolSatisfaction, ToolSatisfaction{Tool: tool, Proportion: NewProportion(k.up, k.n)})
	}
	sort.Slice(rep.ToolSatisfaction, func(i, j int) bool {
		a, b := rep.ToolSatisfaction[i], rep.ToolSatisfaction[j]
		return a.Ratio > b.Ratio || a.Ratio == b.Ratio && a.Tool < b.Tool
	})
	rep.Grounding = Grounding{Proportion: NewProportion(verdicts-wrong, verdicts), Wrong: wrong, Rule: ruleGrounding}
	sat := Satisfaction{Baseline: NewProportion(arms[0].up, arms[0].n), Gear: NewProportion(arms[1].up, arms[1].n),
		Rule: ruleSatisfaction}
	sat.Difference = Newcombe(sat.Gear, sat.Baseline)
	if sat.Baseline.Ratio > 0 && sat.Gear.N > 0 {
		sat.RelativeIncrease = sat.Difference.Value / sat.Baseline.Ratio
	}
	rep.Satisfaction = sat
}
