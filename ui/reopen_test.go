package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// TestReopenedTurnLooksAsItDid records finished turns as the agent does,
// reads them back as /history does, and draws both: the card's route
// line and choice, the answer (Markdown only when the model wrote it) and
// the badge are the same, with nothing guessed from the conversation's
// engines.
func TestReopenedTurnLooksAsItDid(t *testing.T) {
	t.Parallel()
	chatModel := offlineEngines()
	chatModel.Chat = store.RoleModel{Engine: "openai", Model: "gpt-4o-mini"}
	markdown := "The product is **391**.\n\n- 17 × 23 = 391\n- Calculator, 76%"

	picked := unsureRecord()
	picked.Tool, picked.Family, picked.ChosenBy, picked.Confidence = "WikiSearch", "wiki", "user", 0.2910
	picked.Confirmation = &agent.Confirmation{Threshold: 0.5, Chosen: "WikiSearch"}
	picked.Answer, picked.AnsweredBy, picked.Engines = markdown, "model", chatModel

	switched := calcRecord()
	switched.Input, switched.Tool, switched.Family, switched.ChosenBy, switched.Confidence = "use wiki instead", "WikiSearch", "wiki", "user", 0.199
	switched.Route = &agent.Route{NeedsTool: true, By: "user", Probability: 0.96, Threshold: 0.13}
	switched.Answer, switched.AnsweredBy, switched.Engines = markdown, "model", chatModel

	noTool := calcRecord()
	noTool.Input, noTool.Query = "tell me a joke", "tell me a joke"
	noTool.Route = &agent.Route{NeedsTool: false, By: "model", Probability: 0.31, Threshold: 0.5, ModelAsked: true, ModelSaid: "no"}
	noTool.Tool, noTool.Family, noTool.ChosenBy, noTool.Confidence, noTool.Grounded = "", "", "", 0, false
	noTool.Grounding.Choice, noTool.Emission, noTool.Call = agent.NoTool, nil, nil
	noTool.Answer, noTool.AnsweredBy, noTool.Engines = "Why did the *scarecrow* win an award?", "model", chatModel

	rejected := calcRecord()
	rejected.Emission = &agent.Emission{Path: store.EmissionPrompted, Tool: "Calculator", Original: "Calculator(seventeen)", Rejected: true}
	rejected.Call = nil
	rejected.Answer, rejected.AnsweredBy, rejected.Engines = "I could not write a valid call of **Calculator**, so nothing was run.", "gear", chatModel

	typed := calcRecord()
	typed.Input, typed.Query, typed.Mode = "/GEAR Calculator(17 * 23)", "Calculator(17 * 23)", store.ModeDirect
	typed.Route, typed.Grounding, typed.Confidence, typed.Grounded, typed.ChosenBy = &agent.Route{NeedsTool: true, By: "user"}, nil, 0, false, "call"
	typed.Emission = &agent.Emission{Path: store.EmissionExact, Tool: "Calculator", Call: "Calculator(17 * 23)"}

	// Cancelled at the confirm prompt: grounding's choice was not run.
	cancelled := unsureRecord()
	cancelled.Status, cancelled.Error = store.StatusCancelled, "cancelled"
	cancelled.Tool, cancelled.Family, cancelled.ChosenBy, cancelled.Confidence, cancelled.Grounded = "", "", "", 0, false
	cancelled.Call, cancelled.Emission, cancelled.Answer, cancelled.AnsweredBy = nil, nil, "", ""

	cases := []struct {
		name string
		rec  agent.Record
		want []string
	}{
		{"grounding chose, offline", calcRecord(), []string{"needs a tool: 96% (asks ≥ 13%)", "Calculator · tool 76% · grounding: offline engine"}},
		{"direct mode", adelaideRecord(), []string{"you › /GEAR what time is it in Adelaide", "needs a tool: yes (direct mode)", "CurrentTime · tool 97%"}},
		{"picked at the gate", picked, []string{"chosen by you", "The product is 391.", "WikiSearch · chosen by you"}},
		{"tool switch", switched, []string{"you › use wiki instead", "↻ what is 17 * 23", "you named it", "WikiSearch · chosen by you"}},
		{"routed to no tool", noTool, []string{"needs a tool: no, said the chat model", "no tool was chosen", "Why did the scarecrow"}},
		{"rejected call", rejected, []string{"**Calculator**"}},
		{"cancelled at the confirm prompt", cancelled, []string{"Calculator", "49% confidence  not run", "cancelled"}},
		{"typed call", typed, []string{"you › /GEAR Calculator(17 * 23)", "exact call, typed by you", "Calculator · exact call"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, conv := storeWithEngines(t, c.rec.Engines, c.rec)
			turns, err := st.Turns(context.Background(), conv)
			if err != nil || len(turns) != 1 {
				t.Fatalf("turns %v, %v", turns, err)
			}
			c.rec.TurnID, c.rec.ConversationID = turns[0].TurnID, conv
			stored, err := st.Conversation(context.Background(), conv)
			if err != nil {
				t.Fatal(err)
			}
			m := newTestModel(t, newFakeAgent(t), st, 80, 24)
			live := &entry{kind: entryTurn, input: c.rec.Input, rec: c.rec}
			reopened := &entry{kind: entryTurn, input: storedInput(turns[0]), rec: recordFromStored(turns[0], stored)}
			want := ansi.Strip(strings.Join(m.paint.lines(live, 80), "\n"))
			got := ansi.Strip(strings.Join(m.paint.lines(reopened, 80), "\n"))
			if got != want {
				t.Errorf("reopened turn differs from the live one:\n--- reopened\n%s\n--- live\n%s", got, want)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("reopened turn lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// storeWithEngines opens a history in a temporary directory holding the
// given finished turns in one conversation served by engines, as the agent
// records them.
func storeWithEngines(t *testing.T, e agent.Engines, recs ...agent.Record) (*store.Store, int64) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "gear.db"), store.Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	conv, err := st.CreateConversation(ctx, store.NewConversation{Mode: store.ModeChat, Chat: e.Chat,
		Grounding: e.Grounding, Embedding: e.Embedding})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		ref, err := st.BeginTurn(ctx, conv, r.Query, r.Mode)
		if err != nil {
			t.Fatal(err)
		}
		r.TurnID = ref.TurnID
		if err := st.FinishTurn(ctx, r.StoreRecord()); err != nil {
			t.Fatal(err)
		}
	}
	return st, conv
}

// A long conversation reopens with its last turns only, and says how many
// earlier ones it left out and where to read them.
func TestReopenReadsOnlyTheLastTurns(t *testing.T) {
	t.Parallel()
	recs := make([]agent.Record, reopenTurns+5)
	for i := range recs {
		recs[i] = calcRecord()
	}
	st, conv := storeWith(t, recs...)
	m := newTestModel(t, newFakeAgent(t), st, 80, 24)
	msg := loadConversationCmd(context.Background(), st, conv, 0)().(conversationLoadedMsg)
	if msg.err != nil || len(msg.turns) != reopenTurns || msg.earlier != 5 {
		t.Fatalf("read %d turns, %d earlier, %v; want %d and 5", len(msg.turns), msg.earlier, msg.err, reopenTurns)
	}
	m.onConversationLoaded(msg)
	var notes strings.Builder
	for _, e := range m.conv.entries {
		notes.WriteString(e.text)
	}
	for _, want := range []string{"(205 turns,", "Showing the last 200 turns; gear history show 1 prints the 5 earlier turns before them."} {
		if !strings.Contains(notes.String(), want) {
			t.Errorf("notices lack %q:\n%s", want, notes.String())
		}
	}
}
