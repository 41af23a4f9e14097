package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
	"github.com/gear-chat/gear/tools/place"
	"github.com/gear-chat/gear/tools/timezone"
	"github.com/gear-chat/gear/tools/weather"
	"github.com/gear-chat/gear/tools/wiki"
)

// testNow is the clock of the tests' time tools.
var testNow = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

// loadPlaces is shared by every test: the gazetteer is read-only.
var loadPlaces = sync.OnceValues(place.Load)

// stubTool is a tool with a real spec whose run the test scripts, counting
// its runs — for the network tools, which tests never let out.
type stubTool struct {
	spec tools.Spec
	run  func(ctx context.Context, c tools.Call) (tools.Result, error)
	runs *atomic.Int32
}

func (s stubTool) Spec() tools.Spec { return s.spec }
func (s stubTool) Run(ctx context.Context, c tools.Call) (tools.Result, error) {
	s.runs.Add(1)
	return s.run(ctx, c)
}

// countingTool counts a real tool's runs.
type countingTool struct {
	tools.Tool
	runs *atomic.Int32
}

func (c countingTool) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	c.runs.Add(1)
	return c.Tool.Run(ctx, call)
}

// library is the test tool library: the real Calculator and CurrentTime,
// and WeatherSearch and WikiSearch with their real specs and scripted runs
// (wiki answers wikiText, or fails with wikiErr). extra adds synthetic
// tools of other families, up to a library of that many more.
type library struct {
	reg  *tools.Registry
	runs map[string]*atomic.Int32
}

type libOpts struct {
	wikiText string
	wikiErr  error
	extra    int
	// converter adds TimezoneConverter.
	converter bool
}

func newLibrary(t testing.TB, o libOpts) library {
	t.Helper()
	lib := library{runs: map[string]*atomic.Int32{}}
	counter := func(name string) *atomic.Int32 {
		c := &atomic.Int32{}
		lib.runs[name] = c
		return c
	}
	tzOpts := timezone.Options{Places: loadPlaces, Now: func() time.Time { return testNow }, Local: time.UTC}
	ts := []tools.Tool{
		countingTool{calc.New(), counter("Calculator")},
		countingTool{timezone.NewCurrentTime(tzOpts), counter("CurrentTime")},
	}
	if o.converter {
		ts = append(ts, countingTool{timezone.NewConverter(tzOpts), counter("TimezoneConverter")})
	}
	ts = append(ts,
		stubTool{spec: weather.NewSearch(weather.Config{}).Spec(), runs: counter("WeatherSearch"),
			run: func(ctx context.Context, c tools.Call) (tools.Result, error) {
				return tools.Result{Text: "Paris, France: 18 °C, partly cloudy, wind 12 km/h"}, nil
			}},
		stubTool{spec: wiki.New(wiki.Config{}).Spec(), runs: counter("WikiSearch"),
			run: func(ctx context.Context, c tools.Call) (tools.Result, error) {
				if o.wikiErr != nil {
					return tools.Result{}, o.wikiErr
				}
				text := o.wikiText
				if text == "" {
					text = "Flag of Ghana: three horizontal stripes of red, gold and green, with a black star."
				}
				return tools.Result{Text: text}, nil
			}},
	)
	for i := 0; i < o.extra; i++ {
		ts = append(ts, extraTool(i, counter))
	}
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	lib.reg = reg
	return lib
}

// extraSubjects make synthetic tools with distinct descriptions.
var extraSubjects = []string{"stock prices", "flight status", "recipes", "song lyrics", "movie showtimes",
	"sports scores", "dictionary definitions", "currency rates", "train timetables", "news headlines",
	"book reviews", "package tracking", "horoscopes", "restaurant menus", "traffic reports", "lottery results",
	"museum hours", "bus routes", "hotel prices", "parking spaces"}

func extraTool(i int, counter func(string) *atomic.Int32) tools.Tool {
	subject := extraSubjects[i%len(extraSubjects)]
	name := fmt.Sprintf("Extra%02dSearch", i)
	spec := tools.Spec{Name: name, Family: tools.Family(fmt.Sprintf("extra%02d", i)),
		Description: "Looks up " + subject + " for a topic and returns a short summary.",
		Params:      []tools.Param{{Name: "topic", Type: tools.TypeString, Description: "what to look up"}},
		Examples:    []tools.Example{{Query: "find " + subject + " for Boston", Call: name + `("Boston")`}},
		Mock:        "Summary of " + subject + " for {topic}.",
	}
	return stubTool{spec: spec, runs: counter(name), run: func(ctx context.Context, c tools.Call) (tools.Result, error) {
		return tools.Result{Text: "Summary of " + subject + " for " + c.Text("topic") + "."}, nil
	}}
}

// harness is an agent wired to a scripted model server and a real store.
type harness struct {
	t   testing.TB
	srv *modelServer
	st  *store.Store
	ag  *Agent
	lib library
}

type harnessOpts struct {
	lib libOpts
	// chat is the chat server's kind; "" means no chat model.
	chat llm.ServerKind
	// modelGrounding puts the small model and the embeddings on the server
	// too (else the offline engine grounds).
	modelGrounding bool
	route          grounding.RouteMode
	confirmBelow   float64
	contextTokens  int
	limits         Limits
	chatTimeout    time.Duration
	// script overrides kinds of goodModel's answers; nil entries remove.
	script map[reqKind]func(modelRequest) reply
	delay  time.Duration
	noDB   bool
	// reuse is Config.ReuseGroundingCall; the small model and the chat
	// model are the one test model.
	reuse ReuseCall
	// noPrefilter leaves the model engine without the offline encoder as
	// its prefilter: the shortlist's calls wait for the query embedding.
	noPrefilter bool
	// shortlist is grounding.Options.Shortlist.
	shortlist int
	// dbPath is the history database (default: a new one in a temporary
	// directory); a second harness on the same path is a new process.
	dbPath string
	// speculative is grounding.Options.SpeculativeRoute.
	speculative bool
	// server is an earlier harness's model server (a new process of gear
	// talks to the same server); nil starts one.
	server *modelServer
	// readings make the offline prober a CallReader with these call
	// confidences; callBelow and offerBelow are the gate's thresholds.
	readings              map[string]grounding.CallReading
	callBelow, offerBelow float64
}

func newHarness(t testing.TB, o harnessOpts) *harness {
	t.Helper()
	h := &harness{t: t, lib: newLibrary(t, o.lib)}
	script := goodModel(t, h.lib.reg)
	for k, f := range o.script {
		if f == nil {
			delete(script, k)
		} else {
			script[k] = f
		}
	}
	if !o.modelGrounding {
		delete(script, kindPrelim)
		delete(script, kindProbe)
		delete(script, kindEmbed)
	}
	if o.chat == "" {
		delete(script, kindRoute)
		delete(script, kindEmit)
		delete(script, kindAnswer)
		delete(script, kindStep)
	}
	if o.server != nil {
		h.srv = o.server
	} else {
		h.srv = newModelServer(t, script)
		h.srv.delay = o.delay
	}
	if !o.noDB {
		path := o.dbPath
		if path == "" {
			path = filepath.Join(t.TempDir(), "gear.db")
		}
		st, err := store.Open(context.Background(), path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		h.st = st
	}
	off := offline.New(offline.Options{Places: placeFinder{}, Tools: h.lib.reg.Specs()})
	eng := off.Grounding()
	if o.readings != nil {
		eng.Prober = readingProber{Prober: eng.Prober, readings: o.readings}
	}
	engines := Engines{Chat: store.RoleModel{Engine: "offline", Model: "offline"},
		Grounding: store.RoleModel{Engine: "offline", Model: "offline"}, Embedding: store.RoleModel{Engine: "offline", Model: "offline"}}
	if o.modelGrounding {
		slm := h.client(llm.RoleGrounding, llm.ServerOpenAI, 0)
		emb := h.client(llm.RoleEmbedding, llm.ServerOpenAI, 0)
		eng = grounding.Engine{Name: grounding.EngineModel, Model: "test-embedding", Encoder: emb, Prober: grounding.SLMProber{SLM: slm}}
		if !o.noPrefilter {
			eng.Prefilter, eng.PrefilterModel = off, offline.EncoderModel+"|prefilter"
		}
		engines.Grounding = store.RoleModel{Engine: "openai", Model: "test-model"}
		engines.Embedding = store.RoleModel{Engine: "openai", Model: "test-model"}
	}
	gopts := grounding.DefaultOptions()
	gopts.Route = o.route
	gopts.Shortlist = o.shortlist
	gopts.SpeculativeRoute = o.speculative
	cfg := Config{Tools: h.lib.reg, Grounding: eng, GroundingOptions: gopts,
		ConfirmBelow: o.confirmBelow, ConfirmCallBelow: o.callBelow, OfferToolsBelow: o.offerBelow, ContextTokens: o.contextTokens, Limits: o.limits, Engines: engines,
		ReuseGroundingCall: o.reuse, SmallModelIsChat: o.modelGrounding && o.chat != ""}
	if o.chat != "" {
		cfg.Chat = ChatClient(h.client(llm.RoleChat, o.chat, o.chatTimeout))
		cfg.Engines.Chat = store.RoleModel{Engine: string(o.chat), Model: "test-model"}
	} else {
		cfg.ChatUnavailable = "no model configured: set --chat-model, GEAR_CHAT_MODEL or models.chat.model, or OPENAI_API_KEY"
	}
	if h.st != nil {
		cfg.Recorder = h.st
		cfg.GroundingOptions.Cache = h.st
	}
	ag, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.ag = ag
	return h
}

func (h *harness) client(role llm.Role, kind llm.ServerKind, timeout time.Duration) *llm.Client {
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	ep := llm.Endpoint{Role: role, Server: kind, ServerFrom: "configured", BaseURL: h.srv.url(), Model: "test-model",
		API: "chat", Timeout: timeout, MaxTokens: 512, BatchSize: 64}
	if role == llm.RoleGrounding {
		ep.MaxTokens, ep.Stop = 64, []string{"\n"}
	}
	c, err := llm.New(ep, llm.WithRetryBackoff(time.Millisecond))
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// placeFinder finds places with the shared gazetteer.
type placeFinder struct{}

func (placeFinder) Scan(text string) []place.Mention {
	g, err := loadPlaces()
	if err != nil {
		return nil
	}
	return g.Scan(text)
}

// ask runs a turn to its end and returns its events.
func (h *harness) ask(req Request) ([]Event, Record) {
	h.t.Helper()
	turn := h.ag.Start(context.Background(), req)
	var evs []Event
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			ev, ok := turn.Next()
			if !ok {
				return
			}
			evs = append(evs, ev)
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		turn.Cancel()
		h.t.Fatalf("turn %q did not end", req.Text)
	}
	return evs, turn.Wait()
}

// eventsOf picks the events of one type.
func eventsOf[E Event](evs []Event) []E {
	var out []E
	for _, ev := range evs {
		if e, ok := ev.(E); ok {
			out = append(out, e)
		}
	}
	return out
}

// answerText joins the answer deltas.
func answerText(evs []Event) string {
	s := ""
	for _, d := range eventsOf[AnswerDelta](evs) {
		s += d.Text
	}
	return s
}

// stored reads the turn back from the store.
func (h *harness) stored(rec Record) store.Turn {
	h.t.Helper()
	turn, err := h.st.Turn(context.Background(), rec.TurnID)
	if err != nil {
		h.t.Fatal(err)
	}
	return turn
}

// totalRuns is how many tool runs happened.
func (h *harness) totalRuns() int {
	n := 0
	for _, c := range h.lib.runs {
		n += int(c.Load())
	}
	return n
}

// agentRuns is how many tool runs the turn used: all runs but grounding's
// probes (tools without a mock run while grounding), plus a probe's run
// the agent took as its call's (ToolRun.FromGrounding).
func (h *harness) agentRuns(rec Record) int {
	n := h.totalRuns()
	if rec.Call != nil && rec.Call.FromGrounding {
		n++
	}
	if rec.Grounding != nil {
		for _, s := range rec.Grounding.Tools {
			if s.Status == grounding.StatusRun || s.Status == grounding.StatusFailed || s.Status == grounding.StatusTimedOut {
				n--
			}
		}
	}
	return n
}

var errNetworkDown = errors.New("wiki: Wikipedia unreachable: dial tcp: connection refused; check the network or tools.wiki.base_url")
