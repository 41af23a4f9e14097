package constrain

import (
	"context"
	"fmt"

	"github.com/gear-chat/gear/tools"
)

// Candidate is a possible next token and its log-probability, as an
// OpenAI-compatible top_logprobs list gives them.
type Candidate struct {
	Token   string
	Logprob float64
}

// Filter keeps the candidates that may come next from s, in their order.
// An empty token is never allowed: it would not move the call on.
func (m *Machine) Filter(s State, cands []Candidate) []Candidate {
	var out []Candidate
	for _, c := range cands {
		if c.Token == "" {
			continue
		}
		if _, ok := m.Advance(s, c.Token); ok {
			out = append(out, c)
		}
	}
	return out
}

// CandidateSource gives the candidate next tokens after the text decoded so
// far: a model asked for one token with top log-probabilities, typically.
// The agent plugs a model in through it.
type CandidateSource interface {
	Next(ctx context.Context, prefix string) ([]Candidate, error)
}

// Bounds of a decoding run.
const (
	DefaultMaxSteps = 1024 // tokens
	DefaultMaxBytes = 8192 // bytes of call text
)

// DecodeOptions bound a decoding run; zero fields take the defaults.
type DecodeOptions struct {
	MaxSteps int
	MaxBytes int
}

// Decoded is a call produced by Decode: complete, accepted by the machine
// and parsed.
type Decoded struct {
	Text  string
	Call  tools.Call
	Steps int
}

// DecodeFailure says why decoding stopped without a call.
type DecodeFailure int

const (
	// NoAllowedCandidate: the source offered no token the machine allows.
	NoAllowedCandidate DecodeFailure = iota + 1
	// LengthBound: the step or byte bound was reached before the call was
	// complete.
	LengthBound
	// SourceFailed: the source returned an error (Err), or the context
	// ended.
	SourceFailed
)

// DecodeError is a decoding run that ended without a call. Prefix is what
// had been accepted; it is never a complete call and must not be run.
type DecodeError struct {
	Reason   DecodeFailure
	Step     int
	Prefix   string
	Expected string // what the machine allowed next, for the message
	Err      error  // the source's error, for SourceFailed
}

func (e *DecodeError) Error() string {
	switch e.Reason {
	case NoAllowedCandidate:
		return fmt.Sprintf("constrain: decoding stopped at token %d after %q: no candidate token is allowed (the machine allows %s); ask the model again or repair", e.Step, e.Prefix, e.Expected)
	case LengthBound:
		return fmt.Sprintf("constrain: decoding stopped at token %d after %d bytes: the call was not complete within the length bound", e.Step, len(e.Prefix))
	}
	return fmt.Sprintf("constrain: decoding stopped at token %d: candidate source: %v", e.Step, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Decode runs client-side ToolDec: from the start of a call it asks src for
// candidates, takes the most probable one the machine allows (the first of
// equals), and stops when the call is complete. It returns a complete,
// accepted, parsed call, or a *DecodeError — never a partial or invalid
// call.
func (m *Machine) Decode(ctx context.Context, src CandidateSource, opts DecodeOptions) (Decoded, error) {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	s := m.Start()
	text := ""
	for step := 0; ; step++ {
		if m.Accepting(s) {
			call, err := m.parseAccepted(text)
			if err != nil {
				return Decoded{}, err
			}
			return Decoded{Text: text, Call: call, Steps: step}, nil
		}
		if step >= opts.MaxSteps || len(text) >= opts.MaxBytes {
			return Decoded{}, &DecodeError{Reason: LengthBound, Step: step, Prefix: text}
		}
		if err := ctx.Err(); err != nil {
			return Decoded{}, &DecodeError{Reason: SourceFailed, Step: step, Prefix: text, Err: err}
		}
		cands, err := src.Next(ctx, text)
		if err != nil {
			return Decoded{}, &DecodeError{Reason: SourceFailed, Step: step, Prefix: text, Err: err}
		}
		best, bestState, tooLong := -1, s, false
		for i, c := range cands {
			if c.Token == "" || best >= 0 && c.Logprob <= cands[best].Logprob {
				continue
			}
			next, ok := m.Advance(s, c.Token)
			switch {
			case !ok:
			case len(text)+len(c.Token) > opts.MaxBytes:
				tooLong = true
			default:
				best, bestState = i, next
			}
		}
		if best < 0 {
			if tooLong {
				return Decoded{}, &DecodeError{Reason: LengthBound, Step: step, Prefix: text}
			}
			return Decoded{}, &DecodeError{Reason: NoAllowedCandidate, Step: step, Prefix: text, Expected: m.Allowed(s).String()}
		}
		text += cands[best].Token
		s = bestState
	}
}
