package cli

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/tools"
)

// pingTimeout bounds the check that a model server answers. A server that
// needs longer just to list its models will not answer a question in time.
const pingTimeout = 3 * time.Second

// pinger is a model role's client, as the server check needs it.
type pinger interface {
	Ping(ctx context.Context, d time.Duration) error
}

// serverCheck pings each model role's server once per invocation, so a
// server that is down or refuses the key is found before a question
// needs it, and reported once.
type serverCheck struct {
	roles []llm.Role
	ping  map[llm.Role]pinger
	// server names each role's server and key, so a server that serves
	// several roles is asked once.
	server map[llm.Role]string

	mu   sync.Mutex
	done bool
	down map[llm.Role]error
}

// check pings the servers (once; a check cut short by ctx decides
// nothing) and returns the roles whose server cannot serve this session.
func (c *serverCheck) check(ctx context.Context) map[llm.Role]error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return c.down
	}
	down := map[llm.Role]error{}
	seen := map[string]error{}
	for _, role := range c.roles {
		err, ok := seen[c.server[role]]
		if !ok {
			err = c.ping[role].Ping(ctx, pingTimeout)
			if ctx.Err() != nil {
				return nil
			}
			seen[c.server[role]] = err
		}
		if err != nil && serverDown(err) {
			down[role] = err
		}
	}
	c.done, c.down = true, down
	return down
}

// checked reports whether the check has run.
func (c *serverCheck) checked() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

// serverChecks is the invocation's check of every role with a server.
func (a *app) serverChecks() (*serverCheck, error) {
	a.serversMu.Lock()
	defer a.serversMu.Unlock()
	if a.servers != nil {
		return a.servers, nil
	}
	c := &serverCheck{ping: map[llm.Role]pinger{}, server: map[llm.Role]string{}}
	for _, role := range llm.Roles() {
		cl, err := a.llmClient(role)
		if err != nil {
			return nil, err
		}
		if cl != nil {
			ep := cl.Endpoint()
			c.roles = append(c.roles, role)
			c.ping[role] = cl
			key := sha256.Sum256([]byte(ep.APIKey.Reveal())) // the key itself is kept nowhere
			c.server[role] = fmt.Sprintf("%s %x", ep.BaseURL, key[:8])
		}
	}
	a.servers = c
	return c, nil
}

// groundingFallback is GEAR's model engine while its servers answer, and
// the offline engine for the rest of the session once the check finds one
// unreachable or refusing the key: what can work offline (the calculator,
// the clock, time zones) still does. The check runs before the first
// vector is made, so an encoder's vectors are never compared with
// another's; the embedding cache is not used once the offline engine
// serves (its vectors are cheap, and must not be kept under the model's
// name).
type groundingFallback struct {
	model, offline grounding.Engine
	servers        *serverCheck
	cache          grounding.EmbeddingCache
}

// engine is what grounding is given: the model engine's name and model,
// with every part going through the check.
func (f *groundingFallback) engine() grounding.Engine {
	e := grounding.Engine{Name: f.model.Name, Model: f.model.Model, Encoder: fallbackEncoder{f}, Prober: fallbackProber{f},
		// The prefilter is local: it ranks the shortlist whichever engine
		// serves.
		Prefilter: f.model.Prefilter, PrefilterModel: f.model.PrefilterModel}
	if f.model.Router != nil {
		e.Router = fallbackRouter{f}
	}
	return e
}

// serverDown reports whether err says the server cannot serve this
// session: it does not answer, or it refuses the key or the model.
func serverDown(err error) bool {
	return errors.Is(err, llm.ErrUnreachable) || errors.Is(err, llm.ErrAuth) ||
		errors.Is(err, llm.ErrTimeout) || errors.Is(err, llm.ErrUnknownModel)
}

// check reports why the model engine cannot serve (nil when it can).
func (f *groundingFallback) check(ctx context.Context) error {
	down := f.servers.check(ctx)
	for _, role := range []llm.Role{llm.RoleGrounding, llm.RoleEmbedding} {
		if err := down[role]; err != nil {
			return err
		}
	}
	return nil
}

// fallbackWarnings are the lines that say, once, which servers cannot
// serve and what gear does instead: one line per server, naming its roles.
func fallbackWarnings(down map[llm.Role]error) []string {
	type server struct {
		what  string
		roles []string
	}
	var servers []*server
	byWhat := map[string]*server{}
	chatDown := false
	for _, role := range llm.Roles() {
		err := down[role]
		if err == nil {
			continue
		}
		chatDown = chatDown || role == llm.RoleChat
		what := err.Error()
		var le *llm.Error
		if errors.As(err, &le) {
			what = fmt.Sprintf("the model server at %s: %s", le.BaseURL, le.Kind)
			if le.Status != 0 {
				what += fmt.Sprintf(" (HTTP %d)", le.Status)
			}
		}
		s, ok := byWhat[what]
		if !ok {
			s = &server{what: what}
			byWhat[what] = s
			servers = append(servers, s)
		}
		s.roles = append(s.roles, string(role))
	}
	var out []string
	for _, s := range servers {
		then := "grounding uses the offline engine"
		if chatDown {
			then = "gear answers with its offline engine and tools"
		}
		out = append(out, fmt.Sprintf("%s (%s) — %s this session: the calculator, clock and time zones still work; gear config shows the settings",
			s.what, strings.Join(s.roles, ", "), then))
	}
	return out
}

// use is the engine to call: offline once the check failed.
func (f *groundingFallback) use(ctx context.Context) grounding.Engine {
	if f.check(ctx) != nil {
		return f.offline
	}
	return f.model
}

type fallbackEncoder struct{ f *groundingFallback }

func (e fallbackEncoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.f.use(ctx).Encoder.Embed(ctx, texts)
}

type fallbackProber struct{ f *groundingFallback }

func (p fallbackProber) Preliminary(ctx context.Context, query string) (string, error) {
	return p.f.use(ctx).Prober.Preliminary(ctx, query)
}

func (p fallbackProber) Call(ctx context.Context, spec tools.Spec, query string) (string, error) {
	return p.f.use(ctx).Prober.Call(ctx, spec, query)
}

// ReadCall gives the serving prober's call confidence: the offline
// engine's when the model is down, none (nil) from the model.
func (p fallbackProber) ReadCall(ctx context.Context, spec tools.Spec, query string) (string, *grounding.CallReading, error) {
	return readCall(ctx, p.f.use(ctx).Prober, spec, query)
}

// readCall is prober's call with its reading, nil when it gives none.
func readCall(ctx context.Context, prober grounding.Prober, spec tools.Spec, query string) (string, *grounding.CallReading, error) {
	if r, ok := prober.(grounding.CallReader); ok {
		return r.ReadCall(ctx, spec, query)
	}
	text, err := prober.Call(ctx, spec, query)
	return text, nil, err
}

// ForQuery gives one query the model prober's own view — its requests
// share one response budget (grounding.PerQuery) — while the model serves.
func (p fallbackProber) ForQuery() grounding.Prober {
	if q, ok := p.f.model.Prober.(grounding.PerQuery); ok {
		return fallbackQueryProber{f: p.f, model: q.ForQuery()}
	}
	return p
}

// fallbackQueryProber is fallbackProber for one query.
type fallbackQueryProber struct {
	f     *groundingFallback
	model grounding.Prober
}

func (p fallbackQueryProber) Preliminary(ctx context.Context, query string) (string, error) {
	if p.f.check(ctx) != nil {
		return p.f.offline.Prober.Preliminary(ctx, query)
	}
	return p.model.Preliminary(ctx, query)
}

func (p fallbackQueryProber) Call(ctx context.Context, spec tools.Spec, query string) (string, error) {
	if p.f.check(ctx) != nil {
		return p.f.offline.Prober.Call(ctx, spec, query)
	}
	return p.model.Call(ctx, spec, query)
}

func (p fallbackQueryProber) ReadCall(ctx context.Context, spec tools.Spec, query string) (string, *grounding.CallReading, error) {
	if p.f.check(ctx) != nil {
		return readCall(ctx, p.f.offline.Prober, spec, query)
	}
	return readCall(ctx, p.model, spec, query)
}

type fallbackRouter struct{ f *groundingFallback }

func (r fallbackRouter) YesNo(ctx context.Context, prompt string) (bool, error) {
	eng := r.f.use(ctx)
	if eng.Router == nil {
		// The offline engine has no yes/no model: routing then uses the
		// confidence threshold, as it does when no router is set.
		return false, errNoRouter
	}
	return eng.Router.YesNo(ctx, prompt)
}

// errNoRouter tells routing that no model answers its question.
var errNoRouter = errors.New("no routing model while the model server is down")

// fallbackCache is the embedding cache while the model engine serves.
type fallbackCache struct{ f *groundingFallback }

func (c fallbackCache) CachedEmbeddings(ctx context.Context, model string, texts []string) ([][]float32, error) {
	if c.f.check(ctx) != nil {
		return make([][]float32, len(texts)), nil
	}
	return c.f.cache.CachedEmbeddings(ctx, model, texts)
}

func (c fallbackCache) PutEmbeddings(ctx context.Context, model string, texts []string, vectors [][]float32) error {
	if c.f.check(ctx) != nil {
		return nil
	}
	return c.f.cache.PutEmbeddings(ctx, model, texts, vectors)
}
