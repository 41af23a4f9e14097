package grounding

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Evaluation on a tool library: the queries of a tool-selection benchmark
// (docs/benchmarks.md), each labelled with the library's tool that answers
// it or "none", judged by the tool grounding chooses — not its family, as
// gear's own dev file is (eval.go).

// LibraryItem is one labelled query of a tool library's query set.
type LibraryItem struct {
	ID    string `json:"id,omitempty"`
	Query string `json:"query"`
	// Tool is the library's tool that answers the query, or None.
	Tool string `json:"tool"`
	// Also are other tools that are right too.
	Also []string `json:"also,omitempty"`
	// Candidates, when given, are the item's own tool set: it is judged
	// only among them (and none).
	Candidates []string `json:"candidates,omitempty"`
	// Arguments are the gold call's arguments, where the set has them;
	// kept for --out, not scored.
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Accepts reports whether choosing tool (or None) is right for the item.
func (it LibraryItem) Accepts(tool string) bool { return accepts(it.Tool, it.Also, tool) }

// NeedsTool reports whether the item is labelled with a tool (not none).
func (it LibraryItem) NeedsTool() bool { return it.Tool != None }

// ReadLibraryItems reads a query set (JSONL, one item a line). Blank lines
// are skipped; a bad line is an error naming its number.
func ReadLibraryItems(r io.Reader) ([]LibraryItem, error) {
	var items []LibraryItem
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var it LibraryItem
		if err := json.Unmarshal([]byte(line), &it); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if strings.TrimSpace(it.Query) == "" {
			return nil, fmt.Errorf("line %d: no query", n)
		}
		if strings.TrimSpace(it.Tool) == "" {
			return nil, fmt.Errorf("line %d: no tool (want the library's tool that answers the query, or \"none\")", n)
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return items, nil
}

// ModelUsage is what one query cost a model engine.
type ModelUsage struct {
	// Calls are the small model's (and routing's) requests; Embeddings
	// the embedding requests.
	Calls            int `json:"calls"`
	Embeddings       int `json:"embeddings"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// LibraryPrediction is one item's outcome, as `gear eval --library --out`
// writes it.
type LibraryPrediction struct {
	LibraryItem
	// Choice is the chosen tool, or None; Correct says Accepts(Choice).
	Choice     string  `json:"choice"`
	Confidence float64 `json:"confidence"`
	Correct    bool    `json:"correct"`
	// Rank is the place (1 = first) of the first right tool when the
	// item's tools are ranked by f, abstention aside; 0 when none is
	// ranked (a none item, or a right tool the library lacks).
	Rank int `json:"rank"`
	// Ranked are the first RankedShown tools by f.
	Ranked []string `json:"ranked"`
	// Of is how many tools the item was judged among.
	Of int `json:"of"`
	// ByLibrary says the best tool was scored by library relevance, so
	// Options.LibraryConfidence made the confidence.
	ByLibrary bool `json:"by_library,omitempty"`
	// Evidence is the best tool's fit as the none model weighs it, and
	// Share the best tool's softmax share among the tools (none aside):
	// with Ranked they let a none model be fitted and the choice re-made
	// without grounding again (FitLibraryNone).
	Evidence *NoneEvidence `json:"none_evidence,omitempty"`
	Share    float64       `json:"share,omitempty"`
	MS       float64       `json:"ms"`
	Usage    *ModelUsage   `json:"usage,omitempty"`
	// Scores are every judged tool's S, P and f, for analysis and fitting.
	Scores []ScoreLine `json:"scores,omitempty"`
}

// RankedShown is how many ranked tools a LibraryPrediction keeps.
const RankedShown = 5

// JudgeLibrary makes an item's prediction from its grounding.
func JudgeLibrary(it LibraryItem, res *Result) LibraryPrediction {
	p := LibraryPrediction{LibraryItem: it, Choice: res.Choice.Tool, Confidence: res.Choice.Confidence,
		MS: res.ElapsedMS, Of: len(res.Tools)}
	p.Correct = it.Accepts(p.Choice)
	if best, ok := res.Best(); ok {
		p.ByLibrary = best.ByLibrary
		if among := 1 - res.NoneProbability; among > 0 {
			p.Share = best.Probability / among
		}
	}
	p.Evidence = res.NoneEvidence
	for i, t := range res.Ranked() {
		if i < RankedShown {
			p.Ranked = append(p.Ranked, t.Tool)
		}
		if p.Rank == 0 && it.NeedsTool() && it.Accepts(t.Tool) {
			p.Rank = i + 1
		}
	}
	for _, t := range res.Tools {
		p.Scores = append(p.Scores, ScoreLine{Tool: t.Tool, Family: t.Family, S: t.S, P: t.P, F: t.F})
	}
	return p
}

// LibraryReport is `gear eval --library`'s summary. Its JSON keys are part of its
// interface: n, top1, top5, abstain_rate, false_abstain_rate, ece,
// ms_per_query and, with a model engine, model_calls_per_query.
type LibraryReport struct {
	N         int `json:"n"`
	ToolItems int `json:"tool_items"`
	NoneItems int `json:"none_items"`
	// Top1 is the share of tool items whose choice is right: what the
	// user gets, an abstention counting as wrong. Top1Ranked is the share
	// whose best-ranked tool is right, abstention aside (what a ranking
	// such as BM25 is measured by); Top5 the share with a right tool among
	// the first five.
	Top1       float64 `json:"top1"`
	Top1Ranked float64 `json:"top1_ranked"`
	Top5       float64 `json:"top5"`
	// AbstainRate is the share of none items answered "none";
	// FalseAbstainRate the share of tool items answered "none".
	AbstainRate      float64 `json:"abstain_rate"`
	FalseAbstainRate float64 `json:"false_abstain_rate"`
	// MacroTop1 is Top1 averaged over the tools labelled (each tool's
	// items weigh alike, whatever its share of the set).
	MacroTop1 float64 `json:"macro_top1"`
	// Accuracy is over every item: a tool item's choice right, a none
	// item's abstention.
	Accuracy float64 `json:"accuracy"`
	// ECE is the expected calibration error of the choice's confidence
	// against Correct, over every item (ECEBins equal bins).
	ECE        float64     `json:"ece"`
	MSPerQuery Percentiles `json:"ms_per_query"`
	// The model engine's cost, means per query; absent offline.
	ModelCallsPerQuery     *float64 `json:"model_calls_per_query,omitempty"`
	EmbeddingCallsPerQuery *float64 `json:"embedding_calls_per_query,omitempty"`
	TokensPerQuery         *float64 `json:"tokens_per_query,omitempty"`
	// Groups are the same figures per group of ids (IDGroup), when the
	// items' ids fall into more than one.
	Groups map[string]*LibraryReport `json:"groups,omitempty"`
}

// SummarizeLibrary computes the report, with a report per id group when
// there are several.
func SummarizeLibrary(preds []LibraryPrediction) LibraryReport {
	rep := summarizeLibrary(preds)
	groups := map[string][]LibraryPrediction{}
	for _, p := range preds {
		g := IDGroup(p.ID)
		groups[g] = append(groups[g], p)
	}
	if len(groups) > 1 {
		rep.Groups = map[string]*LibraryReport{}
		for g, ps := range groups {
			r := summarizeLibrary(ps)
			rep.Groups[g] = &r
		}
	}
	return rep
}

func summarizeLibrary(preds []LibraryPrediction) LibraryReport {
	rep := LibraryReport{N: len(preds)}
	if len(preds) == 0 {
		return rep
	}
	var top1, ranked1, top5, abstained, falseAbstained, right int
	perTool := map[string][2]int{} // tool -> (right, items)
	ms := make([]float64, len(preds))
	var usage ModelUsage
	withUsage := false
	eceIn := make([]Prediction, len(preds))
	for i, p := range preds {
		ms[i] = p.MS
		eceIn[i] = Prediction{Confidence: p.Confidence, Correct: p.Correct}
		if p.Correct {
			right++
		}
		if p.Usage != nil {
			withUsage = true
			usage.Calls += p.Usage.Calls
			usage.Embeddings += p.Usage.Embeddings
			usage.PromptTokens += p.Usage.PromptTokens
			usage.CompletionTokens += p.Usage.CompletionTokens
		}
		if !p.NeedsTool() {
			rep.NoneItems++
			if p.Choice == None {
				abstained++
			}
			continue
		}
		rep.ToolItems++
		c := perTool[p.Tool]
		c[1]++
		if p.Correct {
			top1++
			c[0]++
		}
		perTool[p.Tool] = c
		if p.Choice == None {
			falseAbstained++
		}
		if p.Rank == 1 {
			ranked1++
		}
		if p.Rank >= 1 && p.Rank <= 5 {
			top5++
		}
	}
	share := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	rep.Top1, rep.Top1Ranked, rep.Top5 = share(top1, rep.ToolItems), share(ranked1, rep.ToolItems), share(top5, rep.ToolItems)
	rep.FalseAbstainRate = share(falseAbstained, rep.ToolItems)
	rep.AbstainRate = share(abstained, rep.NoneItems)
	rep.Accuracy = share(right, rep.N)
	if len(perTool) > 0 {
		var sum float64
		for _, c := range perTool {
			sum += share(c[0], c[1])
		}
		rep.MacroTop1 = sum / float64(len(perTool))
	}
	rep.ECE = expectedCalibrationError(eceIn)
	rep.MSPerQuery = Percentiles{P50: percentile(ms, 0.50), P95: percentile(ms, 0.95)}
	if withUsage {
		n := float64(len(preds))
		calls, emb, tok := float64(usage.Calls)/n, float64(usage.Embeddings)/n, float64(usage.PromptTokens+usage.CompletionTokens)/n
		rep.ModelCallsPerQuery, rep.EmbeddingCallsPerQuery, rep.TokensPerQuery = &calls, &emb, &tok
	}
	return rep
}

// IDGroup is the group of an item's id: the id without its trailing
// number ("live_multiple_4-2-1" -> "live_multiple", "metatool-none-12"
// -> "metatool-none"); "" for an id without one.
func IDGroup(id string) string {
	end := len(id)
	for end > 0 {
		c := id[end-1]
		if c >= '0' && c <= '9' || c == '-' || c == '_' {
			end--
			continue
		}
		break
	}
	if end == len(id) {
		return ""
	}
	return id[:end]
}

// SortedGroups returns the report's group names, sorted.
func (r LibraryReport) SortedGroups() []string {
	names := make([]string, 0, len(r.Groups))
	for g := range r.Groups {
		names = append(names, g)
	}
	sort.Strings(names)
	return names
}
