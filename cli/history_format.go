package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/store"
)

// Everything read back from the history is untrusted text (what models and
// tools wrote): it goes through sanitize before it reaches the terminal.

func localTime(t time.Time, layout string) string {
	if t.IsZero() {
		return "-"
	}
	return t.In(time.Local).Format(layout)
}

const (
	minuteLayout = "2006-01-02 15:04"
	secondLayout = "15:04:05"
)

func writeConversationList(w io.Writer, path string, convs []store.Conversation) {
	if len(convs) == 0 {
		fmt.Fprintf(w, "No conversations in %s yet.\n", sanitize.Line(path))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tMODE\tTURNS\tTITLE")
	for _, c := range convs {
		title := sanitize.Line(c.Title)
		if title == "" {
			title = "(untitled)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\n", c.ID, localTime(c.Updated, minuteLayout), c.Mode, c.TurnCount, title)
	}
	tw.Flush()
}

func roleModel(rm store.RoleModel) string {
	switch {
	case rm.Engine == "" && rm.Model == "":
		return "-"
	case rm.Engine == store.EngineOffline && (rm.Model == "" || rm.Model == store.EngineOffline):
		return "offline"
	case rm.Engine == "":
		return sanitize.Line(rm.Model)
	}
	return sanitize.Line(rm.Engine + "/" + rm.Model)
}

func writeConversation(w io.Writer, c store.ConversationDump) {
	fmt.Fprintf(w, "Conversation %d · %s · started %s · %s\n", c.ID, c.Mode, localTime(c.Created, minuteLayout), plural(int64(len(c.Turns)), "turn"))
	if t := sanitize.Line(c.Title); t != "" {
		fmt.Fprintf(w, "Title: %s\n", t)
	}
	fmt.Fprintf(w, "Models: chat %s · grounding %s · embedding %s\n", roleModel(c.Chat), roleModel(c.Grounding), roleModel(c.Embedding))
	if c.ParticipantID != "" || c.StudyPhase != "" {
		fmt.Fprintf(w, "Study: participant %s · phase %s\n", sanitize.Line(orDash(c.ParticipantID)), sanitize.Line(orDash(c.StudyPhase)))
	}
	for _, t := range c.Turns {
		fmt.Fprintln(w)
		writeTurn(w, t)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// routeText is the route decision and how it was made: "tool
// (threshold; needs a tool 97%, threshold 50%)"; the probability and threshold
// are grounding's, shown when grounding ran.
func routeText(t store.Turn) string {
	route := orDash(string(t.Route))
	var how []string
	if t.RouteBy != "" {
		how = append(how, string(t.RouteBy))
	}
	if t.Grounded && t.Route != "" && (t.RouteProbability > 0 || t.RouteThreshold > 0) {
		how = append(how, fmt.Sprintf("needs a tool %s, threshold %s", pct(t.RouteProbability), pct(t.RouteThreshold)))
	}
	if len(how) > 0 {
		route += " (" + strings.Join(how, "; ") + ")"
	}
	return route
}

// choiceText ends a route line, in the terminal and in Markdown alike:
// who chose the tool, grounding's confidence, the call confidence (when an
// engine read the call) and how the call was emitted, each after " · ".
func choiceText(t store.Turn) string {
	var s string
	switch t.ChosenBy {
	case store.ChosenByUser:
		s += " · chosen by you"
	case store.ChosenByCall:
		s += " · typed call"
	case store.ChosenByGrounding:
		s += " · chosen by grounding"
	}
	if t.HasConfidence() {
		s += " · " + pct(t.Confidence) + " confidence"
	}
	if t.CallReading != nil {
		s += " · call confidence " + pct(t.CallReading.Confidence)
	}
	if t.Emission != "" {
		s += " · call " + string(t.Emission)
	}
	return s
}

// callDoubts are the doubts behind the turn's call confidence on one
// line, each cleaned by clean; empty when there are none.
func callDoubts(t store.Turn, clean func(string) string) string {
	if t.CallReading == nil {
		return ""
	}
	var out []string
	for _, d := range t.CallReading.Doubts {
		if d = clean(d); d != "" {
			out = append(out, d)
		}
	}
	return strings.Join(out, "; ")
}

// withProbabilities says whether the grounding rows carry probabilities
// (turns recorded before schema 5 do not).
func withProbabilities(rows []store.GroundingScore) bool {
	for _, g := range rows {
		if g.Probability > 0 {
			return true
		}
	}
	return false
}

func writeTurn(w io.Writer, t store.Turn) {
	head := fmt.Sprintf("── Turn %d · %s · %s · %s", t.TurnID, localTime(t.Started, secondLayout), t.Mode, t.Status)
	if t.AnsweredBy != "" {
		head += " · answered by " + string(t.AnsweredBy)
	}
	if t.Latency.Total > 0 {
		head += " · " + duration(t.Latency.Total)
	}
	fmt.Fprintln(w, head)
	fmt.Fprintf(w, "you: %s\n", indent(sanitize.Text(t.Query), "     "))
	if t.Input != "" {
		fmt.Fprintf(w, "typed: %s\n", indent(sanitize.Text(t.Input), "       "))
	}
	if t.Route != "" || t.Tool != "" {
		route := "route: " + routeText(t)
		if t.Tool != "" {
			route += " · " + sanitize.Line(t.Tool)
			if t.ToolFamily != "" {
				route += " [" + sanitize.Line(t.ToolFamily) + "]"
			}
		}
		fmt.Fprintln(w, route+choiceText(t))
	}
	if d := callDoubts(t, sanitize.Line); d != "" {
		fmt.Fprintf(w, "call doubts: %s\n", d)
	}
	if t.RepairNote != "" {
		fmt.Fprintf(w, "repair: %s\n", sanitize.Line(t.RepairNote))
	}
	if len(t.Grounding) > 0 {
		fmt.Fprintln(w, "grounding:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		probs := withProbabilities(t.Grounding)
		if probs {
			fmt.Fprintln(tw, "  #\tTOOL\tS\tP\tf\tPROB\tRESPONSE")
		} else {
			fmt.Fprintln(tw, "  #\tTOOL\tS\tP\tf\tRESPONSE")
		}
		for _, g := range t.Grounding {
			fmt.Fprintf(tw, "  %d\t%s\t%.3f\t%.3f\t%.3f\t", g.Rank, sanitize.Line(g.Tool), g.Semantic, g.Pattern, g.Final)
			if probs {
				fmt.Fprintf(tw, "%s\t", pct(g.Probability))
			}
			fmt.Fprintf(tw, "%s\n", responseCell(g, 50, sanitize.Line))
		}
		tw.Flush()
	}
	for _, c := range t.Calls {
		line := fmt.Sprintf("call: %s · %s", sanitize.Line(c.Call), c.Check)
		if !c.Source.IsBuiltin() {
			line += " · from " + sanitize.Line(c.Source.String())
		}
		if c.Original != "" {
			line += " from " + sanitize.Line(c.Original)
		}
		if c.Duration > 0 {
			line += " · " + duration(c.Duration)
		}
		fmt.Fprintln(w, line)
		if c.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", sanitize.Line(c.Error))
		}
		if c.Response != "" {
			fmt.Fprintf(w, "  → %s\n", indent(sanitize.Text(c.Response), "    "))
		}
	}
	if t.Answer != "" {
		fmt.Fprintf(w, "gear: %s\n", indent(sanitize.Text(t.Answer), "      "))
	}
	if t.Error != "" {
		fmt.Fprintf(w, "error: %s\n", sanitize.Line(t.Error))
	}
	if r := t.Rating; r != nil {
		fmt.Fprintf(w, "rating: %s\n", describeRating(*r))
	}
	var stages []string
	for _, st := range []struct {
		name string
		d    time.Duration
	}{{"route", t.Latency.Route}, {"ground", t.Latency.Ground}, {"emit", t.Latency.Emit}, {"tool", t.Latency.Tool}, {"answer", t.Latency.Answer}} {
		if st.d > 0 {
			stages = append(stages, st.name+" "+duration(st.d))
		}
	}
	if len(stages) > 0 {
		fmt.Fprintf(w, "timings: %s\n", strings.Join(stages, " · "))
	}
	var parts []string
	for _, u := range t.Usage {
		if u.Calls == 0 && u.PromptTokens == 0 && u.CompletionTokens == 0 {
			continue
		}
		p := fmt.Sprintf("%s %s, %d+%d tokens", u.Role, plural(int64(u.Calls), "call"), u.PromptTokens, u.CompletionTokens)
		if u.Estimated {
			p += " (estimated)"
		}
		parts = append(parts, p)
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "models: %s\n", strings.Join(parts, " · "))
	}
}

func describeRating(r store.Rating) string {
	var parts []string
	switch r.Score {
	case store.ScoreUp:
		parts = append(parts, "thumbs up")
	case store.ScoreDown:
		parts = append(parts, "thumbs down")
	}
	if r.WrongTool {
		wrong := "wrong tool"
		if r.WantedTool != "" {
			wrong += " (wanted " + sanitize.Line(r.WantedTool) + ")"
		}
		parts = append(parts, wrong)
	}
	if r.Comment != "" {
		parts = append(parts, fmt.Sprintf("%q", sanitize.Line(r.Comment)))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " · ")
}

func duration(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.2f ms", ms)
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.0f ms", ms)
}

// responseCell is a grounding row's response kind and excerpt.
func responseCell(g store.GroundingScore, width int, clean func(string) string) string {
	if g.Response == "" {
		return string(g.ResponseKind)
	}
	return string(g.ResponseKind) + ": " + clean(clip(g.Response, width))
}

// indent continues a multi-line value under its label.
func indent(s, prefix string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func sourceName(source string) string {
	switch source {
	case "user":
		return "in your question"
	case "assistant":
		return "in the answer"
	case "tool":
		return "in the tool response"
	}
	return ""
}

// writeHits prints one block per turn: where it is, then the snippet with
// the matches in bold on a terminal, **marked** elsewhere.
func writeHits(w io.Writer, hits []store.Hit, terminal bool) {
	if len(hits) == 0 {
		fmt.Fprintln(w, "No matches.")
		return
	}
	open, closing := "**", "**"
	if terminal {
		open, closing = "\x1b[1m", "\x1b[0m"
	}
	for i, h := range hits {
		if i > 0 {
			fmt.Fprintln(w)
		}
		head := []string{fmt.Sprintf("conversation %d · turn %d", h.ConversationID, h.TurnID), localTime(h.Started, minuteLayout), string(h.Mode)}
		if h.Tool != "" {
			tool := sanitize.Line(h.Tool)
			if h.Grounded {
				tool += " " + pct(h.Confidence)
			}
			head = append(head, tool)
		}
		if h.Rating != nil {
			head = append(head, describeRating(store.Rating{Score: h.Rating.Score, WrongTool: h.Rating.WrongTool}))
		}
		if where := sourceName(h.Source); where != "" {
			head = append(head, where)
		}
		fmt.Fprintln(w, strings.Join(head, " · "))
		fmt.Fprintf(w, "  %s\n", highlight(h, open, closing))
	}
}

// highlight marks the snippet's matches, sanitizing every piece.
func highlight(h store.Hit, open, closing string) string {
	var b strings.Builder
	for _, p := range h.Pieces() {
		if p.Match {
			b.WriteString(open + sanitize.Line(p.Text) + closing)
		} else {
			b.WriteString(sanitize.Line(p.Text))
		}
	}
	return b.String()
}
