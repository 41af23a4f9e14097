package survey

import (
	"strconv"
	"strings"
)

// Version identifies the questionnaire's wording and answer types. It is
// stored with every response; change it when a question's meaning or type
// changes. The tool-specific questions follow the tool library (one per
// tool, keyed by the tool's name), so a new tool does not change it.
const Version = "gear-table12/1"

// Kind is a question's answer type, as Table 12 names them.
type Kind string

const (
	// KindRating is a whole number from 0 to 10 ("rating scale 0-10").
	KindRating Kind = "rating"
	// KindYesNo is yes or no ("Likert scales, yes or no").
	KindYesNo Kind = "yes-no"
	// KindChoice is any number of the library's tools ("multiple-choice").
	KindChoice Kind = "choice"
	// KindText is free text ("open-ended").
	KindText Kind = "text"
	// KindScore is a whole number from 0 to 100 ("rating scale 0-100").
	KindScore Kind = "score"
)

// MaxTextRunes bounds an open-ended answer.
const MaxTextRunes = 2000

// Question is one question of the questionnaire.
type Question struct {
	// ID keys the answer in a stored response: stable across versions of
	// the wording, never shown as the question.
	ID string `json:"id"`
	// Number is the question's position, from 1.
	Number int `json:"number"`
	// Row is the question's row in the paper's Table 12 (1-21); every
	// tool-specific question shares the rows 14-19 of the paper's six
	// tools, and carries 14.
	Row  int    `json:"table12_row"`
	Text string `json:"text"`
	// Hint is shown under the question (the scale's ends, what "the older
	// bot" is).
	Hint string `json:"hint,omitempty"`
	Kind Kind   `json:"kind"`
	// Min and Max bound a rating or a score.
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
	// Options are a choice question's allowed answers (the tools).
	Options []string `json:"options,omitempty"`
	// Tool is the tool a tool-specific question asks about.
	Tool string `json:"tool,omitempty"`
	// Required questions must be answered for the response to be complete.
	// Open-ended questions, the tools used and the tool-specific ratings
	// (a participant rates only the tools they used) are optional.
	Required bool `json:"required"`
}

// Question ids. Tool-specific questions are ToolQuestionPrefix + the
// tool's name.
const (
	QOverallExperience  = "overall_experience"
	QSmarter            = "smarter"
	QMoreHelpful        = "more_helpful"
	QOldAccuracy        = "old_accuracy"
	QNewAccuracy        = "new_accuracy"
	QNoticedTools       = "noticed_tools"
	QToolChoiceAccuracy = "tool_choice_accuracy"
	QWrongToolRecall    = "wrong_tool_recall"
	QAskedOtherTool     = "asked_other_tool"
	QSwitchedOnRequest  = "switched_on_request"
	QToolAnswerAccuracy = "tool_answer_accuracy"
	QToolErrorRecall    = "tool_error_recall"
	QToolsUsed          = "tools_used"
	QFeedback           = "feedback"
	QOverallScore       = "overall_score"

	ToolQuestionPrefix = "tool_accuracy."
)

// Questionnaire is a version of the questions, in the order they are
// asked.
type Questionnaire struct {
	Version   string     `json:"version"`
	Questions []Question `json:"questions"`
}

const (
	ratingHint = "0 = not at all, 10 = completely."
	olderHint  = "The older bot is the chatbot of the baseline phase, which used no tools."
)

// New builds the questionnaire of Table 12 for a tool library: the
// paper's questions in its order, with one accuracy question per tool
// (the paper had six: Time, Wikisearch, Weather Lookup, Location Search,
// Image Generation, Machine Translation) where its tool rows were. Tool
// names are used as given, in the order given; blanks and repeats are
// skipped.
func New(tools []string) Questionnaire {
	var names []string
	seen := map[string]bool{}
	for _, t := range tools {
		t = strings.TrimSpace(t)
		if t != "" && !seen[t] {
			seen[t] = true
			names = append(names, t)
		}
	}
	rating := func(row int, id, text, hint string) Question {
		return Question{ID: id, Row: row, Text: text, Hint: hint, Kind: KindRating, Min: 0, Max: 10, Required: true}
	}
	yesNo := func(row int, id, text string) Question {
		return Question{ID: id, Row: row, Text: text, Kind: KindYesNo, Required: true}
	}
	text := func(row int, id, text string) Question {
		return Question{ID: id, Row: row, Text: text, Hint: "Optional.", Kind: KindText}
	}
	qs := []Question{
		rating(1, QOverallExperience, "How would you rate your overall experience with gear, the GEAR-augmented chatbot?", ratingHint),
		rating(2, QSmarter, "Do you think the GEAR-augmented chatbot has become smarter compared to the previous version?", ratingHint+" "+olderHint),
		rating(3, QMoreHelpful, "Do you think the GEAR-augmented chatbot has become more helpful than the previous one?", ratingHint+" "+olderHint),
		rating(4, QOldAccuracy, "How accurate do you think the answers of the older bot are?", ratingHint+" "+olderHint),
		rating(5, QNewAccuracy, "How accurate do you think the answers of the new version bot are?", ratingHint),
		yesNo(6, QNoticedTools, "Have you noticed that the chatbot is using external tools to help you?"),
		rating(7, QToolChoiceAccuracy, "How would you rate the chatbot's accuracy in choosing the right tool to answer your query?", ratingHint),
		text(8, QWrongToolRecall, "Can you recall a situation where the chatbot chose the wrong tool for your query? If so, please describe it briefly."),
		yesNo(9, QAskedOtherTool, "Have you ever instructed the chatbot to use a different tool for your query, or did the chatbot automatically choose a different tool because you weren't satisfied with the results?"),
		yesNo(10, QSwitchedOnRequest, "Will the chatbot be able to switch to the right tool based on your instructions?"),
		rating(11, QToolAnswerAccuracy, "When a chatbot uses an external tool, how would you rate its response accuracy?", ratingHint),
		text(12, QToolErrorRecall, "Can you recall any instances where the chatbot used external tools to produce output errors or didn't meet your expectations? If so, please describe it briefly."),
		{ID: QToolsUsed, Row: 13, Text: "What tools of the chatbot have you used?", Hint: "Choose every tool you used; none is an answer too.",
			Kind: KindChoice, Options: names},
	}
	for _, t := range names {
		qs = append(qs, Question{ID: ToolQuestionPrefix + t, Row: 14, Tool: t, Kind: KindRating, Min: 0, Max: 10,
			Text: "How would you rate the accuracy of the output generated by the chatbot using the " + t + " tool?",
			Hint: ratingHint + " Asked only about the tools you used."})
	}
	qs = append(qs,
		text(20, QFeedback, "Please provide any additional feedback or suggestions you have for improving the GEAR-augmented chatbot's performance."),
		Question{ID: QOverallScore, Row: 21, Text: "Overall score you want to give to the GEAR-augmented chatbot.",
			Hint: "0 = worst, 100 = best.", Kind: KindScore, Min: 0, Max: 100, Required: true},
	)
	for i := range qs {
		qs[i].Number = i + 1
	}
	return Questionnaire{Version: Version, Questions: qs}
}

// Question returns the question with this id.
func (q Questionnaire) Question(id string) (Question, bool) {
	for _, x := range q.Questions {
		if x.ID == id {
			return x, true
		}
	}
	return Question{}, false
}

// Tools are the tools the questionnaire asks about.
func (q Questionnaire) Tools() []string {
	if x, ok := q.Question(QToolsUsed); ok {
		return x.Options
	}
	return nil
}

// Label is how a question is named in messages: its number and id.
func (x Question) Label() string {
	return "question " + itoa(x.Number) + " (" + x.ID + ")"
}

// Scale describes the answers a question takes, for prompts and errors.
func (x Question) Scale() string {
	switch x.Kind {
	case KindRating, KindScore:
		return "a whole number from " + itoa(x.Min) + " to " + itoa(x.Max)
	case KindYesNo:
		return "yes or no"
	case KindChoice:
		if len(x.Options) == 0 {
			return "a list of tools (the library has none)"
		}
		return "a list of tools from " + strings.Join(x.Options, ", ")
	}
	return "text of at most " + itoa(MaxTextRunes) + " characters"
}

func itoa(n int) string { return strconv.Itoa(n) }
