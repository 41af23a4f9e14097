package grounding

import (
	"time"

	"github.com/gear-chat/gear/grounding/calibration"
)

// Options are GEAR's parameters. Zero values take the defaults of
// DefaultOptions; config.Grounding maps onto them.
type Options struct {
	// Gamma weighs S against P (paper: 0.75).
	Gamma float64
	// GammaArguments weighs S against P for a tool scored by its
	// arguments (never run, no mock of its own: a library's or a
	// server's tool that may change something), whose P is the fit of
	// its arguments rather than its answer's pattern
	// (pattern_arguments.go); 0 means DefaultGammaArguments.
	GammaArguments float64
	// Lambda is P's add-λ smoothing (paper: 1).
	Lambda float64
	// Temperature divides the scores before the softmax that makes them
	// probabilities; fitted on the dev file (see confidence.go).
	Temperature float64
	// NoneScore is the score of the "none" candidate: a tool must score
	// above it to be likelier than no tool at all. Fitted with Temperature.
	NoneScore float64
	// Threshold is the probability that the query needs a tool below which
	// it routes to none.
	Threshold float64
	// Confidence maps the choice's softmax share to the confidence shown
	// when the threshold routes (confidence.go); the zero map shows the
	// share itself.
	Confidence ConfidenceMap
	// LibraryConfidence is the map for a decision whose best tool the
	// engine scored by library relevance (ToolScore.ByLibrary: a tool
	// whose subject the engine does not know, among a library's): those
	// scores have another scale than the known tools', so they are
	// calibrated on tool libraries' labelled queries instead.
	LibraryConfidence ConfidenceMap
	// LibraryNone decides "none of these" when the best tool was scored
	// by library relevance, from several signals of its fit (see
	// none_model.go); the zero model leaves it to NoneScore and
	// Threshold.
	LibraryNone NoneModel
	// Route says who decides "needs a tool?"; see RouteMode.
	Route RouteMode
	// DecisiveBelow and DecisiveAbove bound the band of "needs a tool"
	// probabilities in which RouteCombined asks the model; outside it
	// grounding is decisive and the model call is skipped.
	DecisiveBelow, DecisiveAbove float64
	// ToolTimeout bounds each tool's run during grounding; a tool that
	// takes longer scores P = 0 and shows "timed out".
	ToolTimeout time.Duration
	// ExternalToolTimeout bounds the scoring run of a tool gear did not
	// write (an MCP server's, a declared one's): such a tool may be slow
	// or hang (a server waiting on a request gear never answers), and an
	// answer the built-in tools can give must not wait on it. Past the
	// budget the tool is scored as one that is never run is — by its
	// arguments read with its output pattern — and says so in Error.
	ExternalToolTimeout time.Duration
	// Patterns is the pattern set 𝒮 with its prior; nil means
	// DefaultPatterns.
	Patterns *PatternSet
	// Cache keeps tool embeddings across runs; nil keeps them in memory
	// only.
	Cache EmbeddingCache
	// CacheLibrary keeps a large library's vectors (LibraryIndexMinTexts
	// texts or more) in Cache as one record, keyed by a digest of every
	// text, instead of one record a text, and a smaller library's not at
	// all (see index_cache.go): for a local encoder, whose vectors cost
	// little to compute and much to store one by one.
	CacheLibrary bool
	// Shortlist is k, the number of tools (ranked by the semantic score)
	// the pattern stage runs on; see shortlist.go. 0 means
	// DefaultShortlist for the model engine and DefaultOfflineShortlist
	// for the offline engine; negative means every tool.
	Shortlist int
	// Concurrency bounds the small-model requests in flight at once (0
	// means DefaultConcurrency).
	Concurrency int
	// SpeculativeRoute, in RouteCombined, starts the yes/no question with
	// grounding's requests and cancels it when grounding is decisive: a
	// query that is not decisive then costs no extra round trip, and
	// every query one more request.
	SpeculativeRoute bool
}

// Defaults. Gamma and Lambda are the paper's (Appendix B.1). Temperature,
// NoneScore, Threshold and the confidence map are fitted on the labelled
// dev file with the offline engine and the built-in tools (FitShipped) and
// generated into package calibration, which config.Defaults reads too:
// go generate ./grounding/calibration re-fits them, and a test in package
// cli fails when they drift. A model engine's scores have another scale:
// re-fit with gear tune.
const (
	DefaultGamma         = 0.75
	DefaultLambda        = 1.0
	DefaultTemperature   = calibration.Temperature
	DefaultNoneScore     = calibration.NoneScore
	DefaultThreshold     = calibration.Threshold
	DefaultDecisiveBelow = 0.1
	DefaultDecisiveAbove = 0.9
	DefaultToolTimeout   = 2 * time.Second
	// DefaultExternalToolTimeout is a local server's round trip with room
	// to spare, far under a person's notice.
	DefaultExternalToolTimeout = 300 * time.Millisecond
)

// DefaultGammaArguments is Options.GammaArguments' default, fitted on the
// tool libraries' dev sets (TestFitGammaArguments in package
// grounding/offline; its leave-one-set-out figures are in BENCHMARKS.md).
const DefaultGammaArguments = 0.95

// DefaultConfidenceMap is the fitted confidence map.
func DefaultConfidenceMap() ConfidenceMap {
	return ConfidenceMap{
		None: Platt{A: calibration.NoneA, B: calibration.NoneB},
		Tool: Platt{A: calibration.ToolA, B: calibration.ToolB, NoCall: calibration.ToolNoCall, FreeText: calibration.ToolFreeText,
			Doubted: calibration.ToolDoubted},
	}
}

// DefaultLibraryConfidenceMap is the fitted confidence map for choices
// among tools scored by library relevance.
func DefaultLibraryConfidenceMap() ConfidenceMap {
	return ConfidenceMap{
		None: Platt{A: calibration.LibraryNoneA, B: calibration.LibraryNoneB, C: calibration.LibraryNoneC},
		Tool: Platt{A: calibration.LibraryToolA, B: calibration.LibraryToolB, C: calibration.LibraryToolC},
	}
}

// DefaultLibraryNoneModel is the fitted none model for choices among
// tools scored by library relevance (FitLibraryNone).
func DefaultLibraryNoneModel() NoneModel {
	return NoneModel{W: [noneDims]float64{
		calibration.LibraryNoneW0, calibration.LibraryNoneW1, calibration.LibraryNoneW2, calibration.LibraryNoneW3,
		calibration.LibraryNoneW4, calibration.LibraryNoneW5, calibration.LibraryNoneW6, calibration.LibraryNoneW7,
	}, Threshold: calibration.LibraryNoneThreshold}
}

// DefaultOptions returns the defaults.
func DefaultOptions() Options {
	return Options{
		Gamma: DefaultGamma, GammaArguments: DefaultGammaArguments, Lambda: DefaultLambda, Temperature: DefaultTemperature,
		NoneScore: DefaultNoneScore, Threshold: DefaultThreshold, Confidence: DefaultConfidenceMap(),
		LibraryConfidence: DefaultLibraryConfidenceMap(), LibraryNone: DefaultLibraryNoneModel(),
		DecisiveBelow: DefaultDecisiveBelow, DecisiveAbove: DefaultDecisiveAbove,
		ToolTimeout: DefaultToolTimeout, ExternalToolTimeout: DefaultExternalToolTimeout,
	}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.GammaArguments == 0 {
		o.GammaArguments = d.GammaArguments
	}
	if o.Temperature <= 0 {
		o.Temperature = d.Temperature
	}
	if o.ToolTimeout <= 0 {
		o.ToolTimeout = d.ToolTimeout
	}
	if o.ExternalToolTimeout <= 0 {
		o.ExternalToolTimeout = d.ExternalToolTimeout
	}
	o.ExternalToolTimeout = min(o.ExternalToolTimeout, o.ToolTimeout)
	if o.DecisiveBelow == 0 && o.DecisiveAbove == 0 {
		o.DecisiveBelow, o.DecisiveAbove = d.DecisiveBelow, d.DecisiveAbove
	}
	if o.Patterns == nil {
		o.Patterns = DefaultPatterns()
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	return o
}
