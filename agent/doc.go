// Package agent is one chatbot turn of gear, the GEAR-augmented chatbot of
// GEAR (“GEAR: Augmenting Language Models with Generalizable and
// Efficient Tool Resolution”, Lu, Yu and Khashabi, EACL 2024,
// arXiv:2307.08775; Appendix G), done with ToolDec (“Don't Fine-Tune, Decode: Syntax Error-Free Tool Use via
// Constrained Decoding”, Zhang, Chen, Li and Wang, arXiv:2310.07075):
//
//	route ("needs a tool?") -> GEAR grounding (tool + confidence)
//	  -> the chat LLM emits the call for the chosen tool under the machine
//	  -> the tool runs -> the LLM writes an answer naming tool and confidence
//
// The gate (gate.go, permit.go) asks before acting on what gear is unsure
// of: the tool (Config.ConfirmBelow), the call's arguments as the prober
// read them (ConfirmCallBelow), an unsure "no tool" for a request for
// information (OfferToolsBelow), and a tool that may change things.
//
// A caller starts a turn with Agent.Start and pulls its events one at a time
// with Turn.Next — the Bubble Tea UI from a tea.Cmd, `gear ask` in a loop.
// The turn ends with exactly one of Done, Failed or Cancelled, each carrying
// the full Record, which is also written to the Recorder (the store) whatever
// the outcome.
//
// The agent reaches models only through the small interfaces in models.go,
// so tests fake them and the UI never sees go-openai; ChatClient adapts an
// *llm.Client.
package agent
