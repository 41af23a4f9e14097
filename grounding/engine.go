package grounding

import (
	"context"

	"github.com/gear-chat/gear/tools"
)

// Encoder turns texts into vectors for the semantic score S (the enc of
// §3.1). The llm package's embedding client satisfies it; so does the
// offline engine's lexical encoder. Vectors of one encoder must have one
// length; they need not be normalised.
type Encoder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// SLM is the small language model of Algorithm 1, decoding greedily
// (temperature 0): prompt in, completion out.
type SLM interface {
	Complete(ctx context.Context, prompt string) (string, error)
}

// YesNo answers a prompt with exactly yes or no. An implementation must
// constrain decoding (a grammar, an enum schema, a choice list) so that no
// other answer can come back; routing asks it "does this query need a
// tool?" (GEAR, arXiv:2307.08775, Appendix G).
type YesNo interface {
	YesNo(ctx context.Context, prompt string) (bool, error)
}

// EmbeddingCache keeps tool description and example embeddings across runs;
// *store.Store satisfies it with its SQLite embeddings table. Keys are the
// encoder's model id and the exact text. CachedEmbeddings returns one
// vector per text, in order, nil where the cache has none.
type EmbeddingCache interface {
	CachedEmbeddings(ctx context.Context, model string, texts []string) ([][]float32, error)
	PutEmbeddings(ctx context.Context, model string, texts []string, vectors [][]float32) error
}

// Prober does the small model's two jobs in Algorithm 1: the preliminary
// answer â = SLM(Q) (line 1) and a tool call q_i = SLM(π_i + Q) (line 3).
// SLMProber does them with a model; the offline engine with rules.
type Prober interface {
	Preliminary(ctx context.Context, query string) (string, error)
	Call(ctx context.Context, spec tools.Spec, query string) (string, error)
}

// CallReading is the call confidence: how
// sure the prober is that a call it wrote reads the query's arguments
// right — apart from whether the tool is the right one (that is the
// grounding confidence). Confidence is in [0, 1]; Doubts names, one short
// phrase each, what the prober was unsure of ("the operator of 'by' is
// ambiguous", "no place was matched exactly"), for the person to read.
type CallReading struct {
	Confidence float64  `json:"confidence"`
	Doubts     []string `json:"doubts,omitempty"`
	// Fit, when the prober can tell, is how well the query fills the
	// tool's parameters by type, read even when no call could be
	// written: the pattern score of a tool that is never run is made
	// from it (pattern_arguments.go).
	Fit *ArgumentFit `json:"-"`
}

// CallReader is a Prober that can say how well it read a call's
// arguments. The grounder uses ReadCall instead of Call when the prober
// has it; a prober without it, or a nil reading, leaves the reading
// unknown (a wrapper that serves a model prober or an offline one,
// depending on the call, reads only the offline engine's calls).
type CallReader interface {
	ReadCall(ctx context.Context, spec tools.Spec, query string) (string, *CallReading, error)
}

// Engine is what fills GEAR's model roles. Name is shown wherever
// grounding is shown ("offline", or "model"); Model identifies the
// encoder for the embedding cache, so vectors of one model are never
// compared with another's.
type Engine struct {
	Name    string
	Model   string
	Encoder Encoder
	Prober  Prober
	// Router, when set, answers routing's yes/no question; without it
	// routing uses the confidence threshold alone.
	Router YesNo
	// Prefilter, when set, is a local encoder (no model call) that ranks
	// the tools while the model's query embedding is on its way, so that
	// the shortlist's calls start at once (see shortlist.go).
	Prefilter Encoder
	// Library, when set, scores a query against the whole library with
	// weights from the library at hand (see library.go); S then combines
	// the encoder's cosine with it (see semantic.go).
	Library LibraryScorer
	// PrefilterModel identifies the prefilter in the embedding cache, so
	// its vectors of the library are computed once, not once a process;
	// empty keeps them in memory only.
	PrefilterModel string
}

// Engine names.
const (
	EngineOffline = "offline"
	EngineModel   = "model"
)
