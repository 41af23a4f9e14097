package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/config"
	"github.com/gear-chat/gear/store"
)

// feedbackHistory records, as the agent and the chat's ratings would, a
// participant who keeps asking who sang a song — questions the offline
// engine ranks WikiSearch first for but routes to no tool at the default
// threshold, their titles being everyday words — and flags every answer
// "wrong tool", naming WikiSearch; plus weather questions grounded right
// and rated up, and chat answered without a tool and rated up.
func feedbackHistory(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	conv, err := st.CreateConversation(ctx, store.NewConversation{Mode: store.ModeChat})
	if err != nil {
		t.Fatal(err)
	}
	turn := func(query string, rec store.TurnRecord, r store.Rating) {
		ref, err := st.BeginTurn(ctx, conv, query, store.ModeChat)
		if err != nil {
			t.Fatal(err)
		}
		// As the agent records: grounded, with no confidence kept when
		// routed to no tool.
		rec.TurnID, rec.Status, rec.Grounded, rec.RouteBy = ref.TurnID, store.StatusDone, true, store.RouteByThreshold
		if rec.Tool != "" {
			rec.ChosenBy = store.ChosenByGrounding
		}
		if err := st.FinishTurn(ctx, rec); err != nil {
			t.Fatal(err)
		}
		r.TurnID = ref.TurnID
		if err := st.Rate(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	none := store.TurnRecord{Route: store.RouteNone, Confidence: 0.9, Answer: "An answer without a tool."}
	for _, song := range []string{"i ran all the way home", "good morning good morning", "only in my dreams",
		"falling in love with you", "let me tell you about the birds and the bees", "stand by me", "take me home tonight",
		"another day in paradise", "here comes the sun", "walking on sunshine", "dancing in the moonlight",
		"every breath you take", "time after time", "in the air tonight", "you are my sunshine", "fly me to the moon",
		"wake me up before you go go", "what a wonderful world", "i will always love you", "summer of sixty nine",
		"hotel california", "stairway to heaven", "dont stop me now", "heart of glass", "sweet home alabama",
		"born to run", "with or without you", "losing my religion", "smells like teen spirit", "like a rolling stone"} {
		for _, ask := range []string{"who sang ", "who sings "} {
			turn(ask+song, none, store.Rating{Score: store.ScoreDown, WrongTool: true, WantedTool: "WikiSearch"})
		}
	}
	for _, p := range []string{"paris", "tokyo", "oslo", "cairo", "lima", "sydney", "toronto", "madrid", "nairobi", "dublin",
		"seoul", "berlin", "denver", "mumbai", "rome", "quito", "perth", "boston", "vienna", "athens"} {
		turn("do i need an umbrella in "+p, store.TurnRecord{Route: store.RouteTool, Tool: "WeatherSearch", ToolFamily: "weather",
			Confidence: 0.9}, store.Rating{Score: store.ScoreUp})
	}
	for _, q := range []string{"remind me to call mum at six", "play some jazz in the kitchen", "add milk to my shopping list",
		"turn off the bedroom lights", "tell me a joke", "what should i cook for dinner", "text alice that i am running late",
		"how are you today", "put my favourite playlist on", "i feel tired", "thanks that was helpful",
		"start a timer for ten minutes", "order more coffee beans", "what can you do", "skip this song", "call the dentist",
		"write a haiku about autumn", "good morning", "can you keep a secret", "say something encouraging"} {
		turn(q, none, store.Rating{Score: store.ScoreUp})
	}
	// Rated down without a flag, and a baseline turn: no labels.
	turn("what is 2 plus 2", store.TurnRecord{Route: store.RouteTool, Tool: "Calculator", ToolFamily: "calc"}, store.Rating{Score: store.ScoreDown})
}

// tuneParamsJSON is gear tune's parameters as --json prints them.
type tuneParamsJSON struct {
	Gamma       float64 `json:"gamma"`
	Threshold   float64 `json:"threshold"`
	Temperature float64 `json:"temperature"`
	NoneScore   float64 `json:"none_score"`
	Confidence  struct {
		None, Tool struct{ A, B float64 }
	} `json:"confidence"`
}

type tuneJSON struct {
	Before, After   tuneParamsJSON
	HeldOutBefore   map[string]float64 `json:"held_out_before"`
	HeldOutAfter    map[string]float64 `json:"held_out_after"`
	HeldOut         int                `json:"held_out"`
	Train           int
	Labels, Skipped map[string]int
	Written         string
}

// TestTuneLearnsFromWrongToolFlags is the must-show: on a history where
// the user kept flagging the wrong tool, gear tune changes the parameters
// and held-out accuracy goes up, as its output says; --write saves them
// into the config file and keeps the file's other settings and comments.
func TestTuneLearnsFromWrongToolFlags(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	db := filepath.Join(home, "gear.db")
	feedbackHistory(t, db)
	cfg := filepath.Join(home, "config.yaml")
	original := "# my gear settings\nhome: Lisbon # where I live\ngrounding:\n  # the paper's value\n  gamma: 0.75\n  tool_timeout: 3s\nagent:\n  confirm_below: 0.4\n"
	if err := os.WriteFile(cfg, []byte(original), 0o640); err != nil {
		t.Fatal(err)
	}
	base := []string{"--db", db, "--config", cfg, "--offline", "tune"}

	code, out, errText := studyGear(t, home, "", append(base, "--json")...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var res tuneJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Labels["history: wrong-tool"] != 60 || res.Labels["history: thumbs-up"] != 20 ||
		res.Labels["history: thumbs-up-no-tool"] != 20 || res.Skipped["rated down without a wrong-tool flag (the answer, not the choice, was blamed)"] != 1 {
		t.Errorf("labels %v, skipped %v", res.Labels, res.Skipped)
	}
	if res.Train+res.HeldOut != 100 || res.HeldOut < 20 {
		t.Errorf("split %d / %d", res.Train, res.HeldOut)
	}
	b, a := res.Before, res.After
	if changed := b.Gamma != a.Gamma || b.Threshold != a.Threshold || b.Temperature != a.Temperature || b.NoneScore != a.NoneScore; !changed {
		t.Errorf("no parameter changed: %v", res.After)
	}
	if res.HeldOutAfter["accuracy"] <= res.HeldOutBefore["accuracy"] {
		t.Errorf("held-out accuracy %.3f -> %.3f: no better", res.HeldOutBefore["accuracy"], res.HeldOutAfter["accuracy"])
	}
	if data, _ := os.ReadFile(cfg); string(data) != original {
		t.Errorf("gear tune without --write changed the config:\n%s", data)
	}

	code, out, errText = studyGear(t, home, "", base...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	t.Logf("gear tune:\n%s", out)
	for _, want := range []string{"parameter      before    after", "held out before", "held out after",
		fmt.Sprintf("%-18s %8.3f", "held out before", res.HeldOutBefore["accuracy"]),
		fmt.Sprintf("%-18s %8.3f", "held out after", res.HeldOutAfter["accuracy"]),
		"Not written: run gear tune --write to save them to " + cfg} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, errText = studyGear(t, home, "", append(base, "--write")...)
	if code != cli.ExitOK || !strings.Contains(out, "Wrote grounding.gamma, threshold, temperature, none_score, confidence_none and confidence_tool to "+cfg) {
		t.Fatalf("--write: exit %d, %s %s", code, out, errText)
	}
	data, _ := os.ReadFile(cfg)
	for _, keep := range []string{"# my gear settings", "home: Lisbon # where I live", "# the paper's value", "tool_timeout: 3s", "confirm_below: 0.4"} {
		if !strings.Contains(string(data), keep) {
			t.Errorf("--write lost %q:\n%s", keep, data)
		}
	}
	loaded, err := config.Load(cfg, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	g := loaded.Grounding
	if g.Gamma != a.Gamma || g.Threshold != a.Threshold || g.Temperature != a.Temperature ||
		g.NoneScore != a.NoneScore || g.ConfidenceNone.A != a.Confidence.None.A || g.ConfidenceNone.B != a.Confidence.None.B ||
		g.ConfidenceTool.A != a.Confidence.Tool.A || g.ConfidenceTool.B != a.Confidence.Tool.B ||
		loaded.Home != "Lisbon" || loaded.Agent.ConfirmBelow != 0.4 {
		t.Errorf("config after --write: %+v", loaded)
	}
	if info, _ := os.Stat(cfg); info.Mode().Perm() != 0o640 {
		t.Errorf("config mode %v", info.Mode().Perm())
	}
	// Tuned again, the written values are the "before" and nothing is lost.
	code, out, _ = studyGear(t, home, "", append(base, "--json")...)
	var again tuneJSON
	json.Unmarshal([]byte(out), &again)
	if code != cli.ExitOK || again.HeldOutBefore["accuracy"] != res.HeldOutAfter["accuracy"] {
		t.Errorf("after writing, held-out accuracy before = %v, want %v", again.HeldOutBefore["accuracy"], res.HeldOutAfter["accuracy"])
	}
}

func TestTuneNeedsLabels(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	code, _, errText := studyGear(t, home, "", "--db", filepath.Join(home, "gear.db"), "--offline", "tune")
	if code != cli.ExitUsage || !strings.Contains(errText, "0 labelled queries; at least 20 are needed") {
		t.Errorf("exit %d, %q", code, errText)
	}
	code, _, errText = studyGear(t, home, "", "--db", filepath.Join(home, "gear.db"), "--offline", "tune", "--dev", filepath.Join(home, "none.jsonl"))
	if code != cli.ExitUsage || !strings.Contains(errText, "none.jsonl does not exist") {
		t.Errorf("exit %d, %q", code, errText)
	}
}
