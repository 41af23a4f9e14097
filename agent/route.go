package agent

import (
	"context"
	"sync"
	"time"
)

// eagerRouter is the Router grounding asks "needs a tool?". When the
// grounder always asks the model (grounding.RouteModel), the agent starts
// the yes/no call alongside grounding and the grounder gets that call's
// answer instead of waiting one more round trip; otherwise (combined mode,
// where grounding asks only when it is not decisive) the call is made when
// asked. Either way the turn's slot records the call's time and answer.
type eagerRouter struct{ inner Router }

type routeSlotKey struct{}

// routeSlot is one turn's routing call.
type routeSlot struct {
	prompt string
	// given is the answer when the user already gave it: /GEAR and a named
	// tool mean a tool is needed, and no model is asked.
	given *bool

	mu       sync.Mutex
	started  time.Time
	finished time.Time
	done     chan struct{} // closed when a started call ends
	yes      bool
	err      error
	stop     context.CancelFunc
	used     bool
}

func withRouteSlot(ctx context.Context, s *routeSlot) context.Context {
	return context.WithValue(ctx, routeSlotKey{}, s)
}

// start makes the call now, for the grounder to collect.
func (r *eagerRouter) start(ctx context.Context, s *routeSlot) {
	cctx, stop := context.WithCancel(ctx)
	s.mu.Lock()
	s.started, s.done, s.stop = time.Now(), make(chan struct{}), stop
	s.mu.Unlock()
	go func() {
		yes, err := r.inner.YesNo(cctx, s.prompt)
		s.mu.Lock()
		s.yes, s.err, s.finished = yes, err, time.Now()
		s.mu.Unlock()
		close(s.done)
	}()
}

// YesNo answers the grounder: with the turn's started call when there is
// one for this prompt, else by asking now.
func (r *eagerRouter) YesNo(ctx context.Context, prompt string) (bool, error) {
	s, _ := ctx.Value(routeSlotKey{}).(*routeSlot)
	if s == nil || s.prompt != prompt {
		return r.inner.YesNo(ctx, prompt)
	}
	if s.given != nil {
		return *s.given, nil
	}
	s.mu.Lock()
	s.used = true
	done := s.done
	s.mu.Unlock()
	if done == nil {
		s.mu.Lock()
		s.started = time.Now()
		s.mu.Unlock()
		yes, err := r.inner.YesNo(ctx, prompt)
		s.mu.Lock()
		s.yes, s.err, s.finished = yes, err, time.Now()
		s.mu.Unlock()
		return yes, err
	}
	select {
	case <-done:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.yes, s.err
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// settle stops a started call nobody asked for (grounding was decisive,
// or failed) and returns the routing
// call's duration (0 when none was made).
func (s *routeSlot) settle() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		s.stop()
	}
	if s.started.IsZero() || s.finished.IsZero() {
		return 0
	}
	return s.finished.Sub(s.started)
}
