package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC)

func TestTurnRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{Now: fixedClock(t0)})
	conv, err := s.CreateConversation(ctx, NewConversation{
		Mode:      ModeChat,
		Chat:      RoleModel{"openai", "gpt-4o-mini"},
		Grounding: RoleModel{EngineOffline, EngineOffline},
		Embedding: RoleModel{"ollama", "nomic-embed-text"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.BeginTurn(ctx, conv, "what's the weather in Adelaide tomorrow?", ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	// Committed before anything else happens: a second reader sees it.
	msgs, err := s.Messages(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 || msgs[0].ID != ref.UserMessageID || msgs[0].Role != MessageUser || msgs[0].TurnID != ref.TurnID {
		t.Fatalf("messages after BeginTurn = %+v, ref %+v", msgs, ref)
	}
	running, err := s.Turn(ctx, ref.TurnID)
	if err != nil {
		t.Fatal(err)
	}
	if running.Status != StatusRunning || !running.Finished.IsZero() || running.Grounded {
		t.Fatalf("turn after BeginTurn = %+v", running)
	}

	rec := benchRecord(ref.TurnID)
	rec.Calls = append(rec.Calls, ToolCall{Tool: "Weather", Source: ToolSource{Kind: SourceMCP, Name: "weather-srv"}, Call: `Weather("Adelaide")`, Check: CallRepaired,
		Original: `Wether("Adelaide")`, Error: "timeout", Duration: 1500 * time.Microsecond})
	rec.RepairNote = "tool name Wether -> Weather"
	rec.Input = "/GEAR what's the weather in Adelaide tomorrow?"
	if err := s.FinishTurn(ctx, rec); err != nil {
		t.Fatal(err)
	}
	got, err := s.Turn(ctx, ref.TurnID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.Grounding {
		rec.Grounding[i].Rank = i + 1
	}
	if !reflect.DeepEqual(got.TurnRecord, rec) {
		t.Errorf("record read back differs:\n got %+v\nwant %+v", got.TurnRecord, rec)
	}
	if got.Query != "what's the weather in Adelaide tomorrow?" || got.Mode != ModeChat || got.ConversationID != conv ||
		got.UserMessageID != ref.UserMessageID || got.AnswerMessageID == 0 || got.Finished.IsZero() || !got.Started.Equal(ref.Started) {
		t.Errorf("turn = %+v", got)
	}
	c, err := s.Conversation(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != "what's the weather in Adelaide tomorrow?" || c.TurnCount != 1 || c.Chat.Model != "gpt-4o-mini" ||
		c.Grounding.Engine != EngineOffline || !c.Updated.After(c.Created) {
		t.Errorf("conversation = %+v", c)
	}
	msgs, err = s.Messages(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[1].Role != MessageAssistant || msgs[1].Text != rec.Answer {
		t.Errorf("messages = %+v", msgs)
	}
}

func TestFinishTurnAgainReplaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	conv, _ := s.CreateConversation(ctx, NewConversation{})
	ref, err := s.BeginTurn(ctx, conv, "convert 10pm Tokyo to Paris", ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	waiting := benchRecord(ref.TurnID)
	waiting.Status, waiting.Calls, waiting.Answer = StatusAwaitingConfirmation, nil, ""
	if err := s.FinishTurn(ctx, waiting); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Turn(ctx, ref.TurnID); got.Status != StatusAwaitingConfirmation || !got.Finished.IsZero() || got.AnswerMessageID != 0 {
		t.Fatalf("awaiting turn = %+v", got)
	}
	done := benchRecord(ref.TurnID)
	done.Grounding = done.Grounding[:2]
	done.Answer = "It is 3 pm in Paris."
	for range 2 { // the same record twice changes nothing
		if err := s.FinishTurn(ctx, done); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Turn(ctx, ref.TurnID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != StatusDone || len(got.Grounding) != 2 || len(got.Calls) != 1 || got.Answer != "It is 3 pm in Paris." || got.Finished.IsZero() {
		t.Fatalf("replaced turn = %+v", got)
	}
	if msgs, _ := s.Messages(ctx, conv); len(msgs) != 2 {
		t.Fatalf("messages = %+v, want the query and one answer", msgs)
	}
}

func TestFinishTurnCancelledContextStillRecords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	conv, _ := s.CreateConversation(ctx, NewConversation{})
	ref, err := s.BeginTurn(ctx, conv, "tell me about Ghana", ModeChat)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.FinishTurn(cancelled, TurnRecord{TurnID: ref.TurnID, Status: StatusCancelled, Error: "cancelled by the user"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Turn(ctx, ref.TurnID); got.Status != StatusCancelled {
		t.Fatalf("status = %q", got.Status)
	}
}

func TestBadInputIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	conv, _ := s.CreateConversation(ctx, NewConversation{})
	ref, err := s.BeginTurn(ctx, conv, "2+2", ModeDirect)
	if err != nil {
		t.Fatal(err)
	}
	good := func() TurnRecord { return benchRecord(ref.TurnID) }
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"unknown conversation", func() error { _, err := s.BeginTurn(ctx, 999, "hi", ModeChat); return err }, "no conversation with id 999"},
		{"empty query", func() error { _, err := s.BeginTurn(ctx, conv, "  \n", ModeChat); return err }, "the query is empty"},
		{"bad mode", func() error { _, err := s.BeginTurn(ctx, conv, "hi", "tall"); return err }, `mode "tall"`},
		{"bad conversation mode", func() error { _, err := s.CreateConversation(ctx, NewConversation{Mode: "x"}); return err }, `mode "x"`},
		{"unknown turn", func() error { r := good(); r.TurnID = 12345; return s.FinishTurn(ctx, r) }, "no turn with id 12345"},
		{"bad status", func() error { r := good(); r.Status = "ok"; return s.FinishTurn(ctx, r) }, `status "ok"`},
		{"bad route", func() error { r := good(); r.Route = "maybe"; return s.FinishTurn(ctx, r) }, `route "maybe"`},
		{"bad route method", func() error { r := good(); r.RouteBy = "vibes"; return s.FinishTurn(ctx, r) }, `route method "vibes"`},
		{"old route method", func() error { r := good(); r.RouteBy = "combined"; return s.FinishTurn(ctx, r) }, `route method "combined"`},
		{"bad chooser", func() error { r := good(); r.ChosenBy = "fate"; return s.FinishTurn(ctx, r) }, `chosen by "fate"`},
		{"bad answerer", func() error { r := good(); r.AnsweredBy = "oracle"; return s.FinishTurn(ctx, r) }, `answered by "oracle"`},
		{"route probability above 1", func() error { r := good(); r.RouteProbability = 1.2; return s.FinishTurn(ctx, r) }, "route probability 1.2"},
		{"route threshold not a number", func() error { r := good(); r.RouteThreshold = math.NaN(); return s.FinishTurn(ctx, r) }, "finite threshold"},
		{"grounding probability below 0", func() error { r := good(); r.Grounding[2].Probability = -0.1; return s.FinishTurn(ctx, r) }, "probability -0.1"},
		{"bad emission", func() error { r := good(); r.Emission = "magic"; return s.FinishTurn(ctx, r) }, `emission path "magic"`},
		{"confidence above 1", func() error { r := good(); r.Confidence = 1.5; return s.FinishTurn(ctx, r) }, "confidence 1.5"},
		{"duplicate usage role", func() error { r := good(); r.Usage = append(r.Usage, r.Usage[0]); return s.FinishTurn(ctx, r) }, "given twice"},
		{"bad response kind", func() error { r := good(); r.Grounding[0].ResponseKind = "fake"; return s.FinishTurn(ctx, r) }, `response kind "fake"`},
		{"duplicate grounding tool", func() error { r := good(); r.Grounding[1].Tool = r.Grounding[0].Tool; return s.FinishTurn(ctx, r) }, "distinct tool"},
		{"bad call check", func() error { r := good(); r.Calls[0].Check = "trusted"; return s.FinishTurn(ctx, r) }, `check "trusted"`},
		{"bad score", func() error { return s.Rate(ctx, Rating{TurnID: ref.TurnID, Score: 5}) }, "score 5"},
		{"rate unknown turn", func() error { return s.Rate(ctx, Rating{TurnID: 777, Score: ScoreUp}) }, "no turn with id 777"},
		{"survey answers not an object", func() error {
			_, err := s.SaveSurvey(ctx, SurveyResponse{ParticipantID: "p", Version: "1", Answers: json.RawMessage(`[1]`)})
			return err
		}, "JSON object"},
		{"survey without participant", func() error { _, err := s.SaveSurvey(ctx, SurveyResponse{Version: "1"}); return err }, "participant id"},
		{"embeddings length mismatch", func() error { return s.PutEmbeddings(ctx, "m", []string{"a"}, nil) }, "1 texts but 0 vectors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
	if got, _ := s.Turn(ctx, ref.TurnID); got.Status != StatusRunning {
		t.Errorf("a refused record changed the turn: %+v", got)
	}
	var nf *NotFoundError
	_, err = s.Conversation(ctx, 4242)
	if !errors.Is(err, ErrNotFound) || !errors.As(err, &nf) || nf.ID != 4242 {
		t.Errorf("Conversation(4242) error = %v", err)
	}
}

func TestRatingsReplaceAndRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{Now: fixedClock(t0)})
	conv, _ := s.CreateConversation(ctx, NewConversation{})
	ref, _ := s.BeginTurn(ctx, conv, "weather in Lagos", ModeChat)
	if err := s.Rate(ctx, Rating{TurnID: ref.TurnID, Score: ScoreUp}); err != nil {
		t.Fatal(err)
	}
	want := Rating{TurnID: ref.TurnID, Score: ScoreDown, WrongTool: true, WantedTool: "WikiSearch", Comment: "I wanted the article"}
	if err := s.Rate(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Turn(ctx, ref.TurnID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Rating == nil || got.Rating.Rated.IsZero() {
		t.Fatalf("rating = %+v", got.Rating)
	}
	want.Rated = got.Rating.Rated
	if *got.Rating != want {
		t.Errorf("rating = %+v, want %+v", *got.Rating, want)
	}
}

func TestStudySettingsTagConversations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	if _, ok, err := s.Setting(ctx, SettingParticipantID); ok || err != nil {
		t.Fatalf("unset setting: ok=%v err=%v", ok, err)
	}
	for k, v := range map[string]string{SettingParticipantID: "p-7f3a", SettingStudyPhase: "baseline"} {
		if err := s.SetSetting(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetSetting(ctx, SettingStudyPhase, "gear"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := s.Setting(ctx, SettingStudyPhase); v != "gear" || !ok || err != nil {
		t.Fatalf("phase = %q %v %v", v, ok, err)
	}
	id, err := s.CreateConversation(ctx, NewConversation{Mode: ModeBaseline})
	if err != nil {
		t.Fatal(err)
	}
	explicit, err := s.CreateConversation(ctx, NewConversation{ParticipantID: "other", StudyPhase: "pilot"})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.Conversation(ctx, id)
	e, _ := s.Conversation(ctx, explicit)
	if c.ParticipantID != "p-7f3a" || c.StudyPhase != "gear" || c.Mode != ModeBaseline || e.ParticipantID != "other" || e.StudyPhase != "pilot" || e.Mode != ModeChat {
		t.Errorf("conversations = %+v / %+v", c, e)
	}
}

func TestSurveyIsResumable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{Now: fixedClock(t0)})
	if _, ok, err := s.ResumableSurvey(ctx, "p1", "table12-v1"); ok || err != nil {
		t.Fatalf("no survey yet: ok=%v err=%v", ok, err)
	}
	r, err := s.SaveSurvey(ctx, SurveyResponse{ParticipantID: "p1", Version: "table12-v1", Phase: "gear",
		Answers: json.RawMessage(`{"q1": 8}`)})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID == 0 || r.Status != SurveyInProgress || r.Started.IsZero() || !r.Completed.IsZero() {
		t.Fatalf("saved = %+v", r)
	}
	resumed, ok, err := s.ResumableSurvey(ctx, "p1", "table12-v1")
	if err != nil || !ok || resumed.ID != r.ID || string(resumed.Answers) != `{"q1":8}` {
		t.Fatalf("resumed = %+v ok=%v err=%v", resumed, ok, err)
	}
	resumed.Answers = json.RawMessage(`{"q1": 8, "q2": true, "q3": ["Calculator", "WikiSearch"], "q9": "more tools please"}`)
	resumed.Status = SurveyComplete
	done, err := s.SaveSurvey(ctx, resumed)
	if err != nil {
		t.Fatal(err)
	}
	if done.Completed.IsZero() || !done.Started.Equal(r.Started) {
		t.Errorf("completed = %+v", done)
	}
	if _, ok, _ := s.ResumableSurvey(ctx, "p1", "table12-v1"); ok {
		t.Error("a complete survey is still offered for resuming")
	}
	all, err := s.SurveyResponses(ctx)
	if err != nil || len(all) != 1 || all[0].Status != SurveyComplete {
		t.Fatalf("responses = %+v, %v", all, err)
	}
	if _, err := s.SaveSurvey(ctx, SurveyResponse{ID: 99, ParticipantID: "p1", Version: "v"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("updating a missing response: %v", err)
	}
}

func TestEmbeddingCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	texts := []string{"Calculator: evaluates arithmetic", "WikiSearch: looks up Wikipedia", "unseen"}
	vecs := [][]float32{{0.25, -1, 3.5}, {1e-3, 2, -0.5}}
	if err := s.PutEmbeddings(ctx, "nomic-embed-text", texts[:2], vecs); err != nil {
		t.Fatal(err)
	}
	got, err := s.CachedEmbeddings(ctx, "nomic-embed-text", texts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got[:2], vecs) || got[2] != nil {
		t.Errorf("cached = %v", got)
	}
	other, err := s.CachedEmbeddings(ctx, "another-model", texts[:1])
	if err != nil || other[0] != nil {
		t.Errorf("another model's cache = %v, %v", other, err)
	}
	if err := s.PutEmbeddings(ctx, "nomic-embed-text", texts[:1], [][]float32{{9, 9}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.CachedEmbeddings(ctx, "nomic-embed-text", texts[:1]); !reflect.DeepEqual(got[0], []float32{9, 9}) {
		t.Errorf("replaced vector = %v", got[0])
	}
}

func TestConversationsNewestFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{Now: fixedClock(t0)})
	var ids []int64
	for _, q := range []string{"first", "second", "third"} {
		id, _ := s.CreateConversation(ctx, NewConversation{})
		if _, err := s.BeginTurn(ctx, id, q+" question", ModeChat); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if _, err := s.BeginTurn(ctx, ids[0], "back to the first", ModeChat); err != nil {
		t.Fatal(err)
	}
	list, err := s.Conversations(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != ids[0] || list[1].ID != ids[2] || list[0].TurnCount != 2 || list[0].Title != "first question" {
		t.Errorf("list = %+v", list)
	}
	all, _ := s.Conversations(ctx, 0)
	if len(all) != 3 {
		t.Errorf("all = %d conversations", len(all))
	}
}

func TestTitleIsTruncatedFirstQuery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	id, _ := s.CreateConversation(ctx, NewConversation{})
	long := "please tell me\nabout " + strings.Repeat("the history of Adelaide ", 10)
	if _, err := s.BeginTurn(ctx, id, long, ModeChat); err != nil {
		t.Fatal(err)
	}
	c, _ := s.Conversation(ctx, id)
	if !strings.HasPrefix(c.Title, "please tell me about the history") || !strings.HasSuffix(c.Title, "…") ||
		len([]rune(c.Title)) != titleRunes || strings.Contains(c.Title, "\n") {
		t.Errorf("title = %q", c.Title)
	}
}

// TestEveryConnectionIsConfigured holds several pooled connections at once
// and checks each has WAL, the busy timeout, foreign keys and the ranking
// function.
func TestEveryConnectionIsConfigured(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{BusyTimeout: 1234 * time.Millisecond})
	var conns []*sql.Conn
	for _, pool := range []*sql.DB{s.w, s.r, s.r, s.r, s.r} {
		c, err := pool.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns = append(conns, c)
	}
	for i, c := range conns {
		var mode string
		var timeout, fk int
		var rank float64
		err := c.QueryRowContext(ctx, `SELECT (SELECT journal_mode FROM pragma_journal_mode), (SELECT timeout FROM pragma_busy_timeout),
			(SELECT foreign_keys FROM pragma_foreign_keys), `+bm25Name+`(x'')`).Scan(&mode, &timeout, &fk, &rank)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		if mode != "wal" || timeout != 1234 || fk != 1 {
			t.Errorf("connection %d: journal %s, busy_timeout %d, foreign_keys %d", i, mode, timeout, fk)
		}
	}
	for _, c := range conns {
		c.Close()
	}
	// Foreign keys hold: a turn cannot point at a missing conversation.
	_, err := s.w.ExecContext(ctx, "INSERT INTO turns (conversation_id, query, mode, created_at) VALUES (999, 'q', 'chat', 0)")
	if err == nil || !strings.Contains(err.Error(), "FOREIGN KEY") {
		t.Errorf("orphan turn: %v", err)
	}
}
