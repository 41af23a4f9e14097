package ui

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// submit handles Enter: a slash command, or a turn for the agent.
func (m *Model) submit() tea.Cmd {
	text := strings.TrimSpace(m.in.value())
	if text == "" {
		return nil
	}
	in := m.agent.Parse(text, m.mode)
	if in.Kind != agent.InputCommand && m.busy() {
		// Sent after the running turn, as typed.
		m.in.remember(text)
		m.in.reset()
		m.queued = append(m.queued, text)
		return nil
	}
	m.in.remember(text)
	m.in.reset()
	m.flash = ""
	switch in.Kind {
	case agent.InputEmpty:
		m.addNotice("Type a question (or, after " + agent.DirectPrefix + ", a call such as " + exampleCall(m.specs) + ") after the prefix.")
		return nil
	case agent.InputCommand:
		return m.command(in.Command, in.Args)
	}
	return m.beginTurn(text, in.Mode)
}

// command runs a slash command. The agent's own prefixes (/GEAR,
// @TallChatBot, /use TOOL) never reach here: they are turns.
func (m *Model) command(name, args string) tea.Cmd {
	switch name {
	case "tools":
		m.addLongEntry(&entry{kind: entryNote, text: serversMarkdown(m.servers) + libraryMarkdown(m.specs)})
	case "help":
		text := helpMarkdown(m.keys) + "\nThe history is kept in `" + mdCode(m.dbLabel) + "`.\n"
		if !m.paint.chatModel {
			text += "\nNo chat model is configured: gear grounds questions and runs its tools (the calculator, the clock " +
				"and time zones work offline) and shows their responses as they are, but cannot converse. " +
				"`gear setup` connects a model server (OpenAI, Ollama, llama.cpp, vLLM, LM Studio); `gear config` shows " +
				"what each role uses.\n"
		}
		m.addLongEntry(&entry{kind: entryNote, text: text})
	case "use":
		m.addNotice("/use TOOL answers the last question again with TOOL, e.g. /use " + firstOr(m.names, "NAME") +
			". The tools are " + strings.Join(m.names, ", ") + ".")
	case "mode":
		return m.modeCommand(args)
	case "rate":
		return m.rateCommand(args)
	case "quit", "exit", "q":
		return m.quit()
	case "new", "history", "survey":
		if m.busy() {
			m.flash = "A turn is running: wait for its answer, or press esc to cancel it, before /" + name + "."
			m.flashForTurn = true
			return nil
		}
		switch name {
		case "new":
			m.conv = newConversation()
			m.conversationID = 0
			m.addNotice("New conversation. Your next question starts it.")
		case "history":
			return m.openHistory(args)
		case "survey":
			return m.openSurvey()
		}
	default:
		m.addError("/" + cleanLine(name) + " is not a command. /help lists them; " + agent.DirectPrefix + " QUERY asks a tool directly.")
	}
	return nil
}

// modeCommand is /mode chat|direct|baseline.
func (m *Model) modeCommand(args string) tea.Cmd {
	mode, ok := store.ParseMode(args)
	if !ok {
		m.addNotice("The mode is " + string(m.mode) + ". /mode chat answers in conversation, /mode direct shows the tool's " +
			"response as is, /mode baseline answers without tools (the comparison chatbot).")
		return nil
	}
	m.mode = mode
	switch mode {
	case store.ModeDirect:
		m.addNotice("Mode direct: lines are grounded to a tool and its response is shown as is.")
	case store.ModeBaseline:
		if !m.paint.chatModel {
			m.addNotice("Mode baseline: lines go to the chat model alone, without tools — and gear has no chat model, " +
				"so it cannot answer anything in this mode. `gear setup` connects one; /mode chat uses the tools again.")
			break
		}
		m.addNotice("Mode baseline: lines are answered by the chat model alone, without tools.")
	default:
		m.addNotice("Mode chat: lines are routed, grounded, and answered in conversation.")
	}
	return nil
}

// openHistory opens the browser, searching for args when given.
func (m *Model) openHistory(args string) tea.Cmd {
	if m.history == nil {
		m.addError("The history database is not open, so there is no history to browse.")
		return nil
	}
	b := newHistoryBrowser(m.st)
	b.query.Width = max(m.width-12, 10)
	m.browser = b
	if args = strings.TrimSpace(args); args != "" {
		b.query.SetValue(args)
		b.query.CursorEnd()
		b.seq++
		return searchCmd(m.ctx, m.history, b.seq, args, m.loc)
	}
	return listConversationsCmd(m.ctx, m.history)
}

// surveyOpenedMsg carries the questionnaire the opener built.
type surveyOpenedMsg struct {
	form SurveyForm
	err  error
}

func openSurveyCmd(ctx context.Context, open SurveyOpener, width, height int) tea.Cmd {
	return func() tea.Msg {
		form, err := open(ctx, width, height)
		return surveyOpenedMsg{form: form, err: err}
	}
}

func (m *Model) openSurvey() tea.Cmd {
	if m.surveyOpener == nil {
		m.addNotice("The questionnaire is not part of this build of gear.")
		return nil
	}
	return openSurveyCmd(m.ctx, m.surveyOpener, m.width, m.height-1)
}

func (m *Model) addEntry(e *entry) {
	m.conv.add(e)
	m.conv.toBottom()
}

// addLongEntry adds an entry to be read from its start.
func (m *Model) addLongEntry(e *entry) {
	m.conv.add(e)
	m.conv.showFrom(len(m.conv.entries)-1, m.paint, m.contentWidth(), m.convHeight())
}

func (m *Model) addNotice(text string) { m.addEntry(&entry{kind: entryNotice, text: text}) }

func (m *Model) addError(text string) { m.addEntry(&entry{kind: entryError, text: text}) }

// exampleCall is the library's first usage example's call, for help.
func exampleCall(specs []tools.Spec) string {
	for _, s := range specs {
		for _, ex := range s.Examples {
			if ex.Call != "" {
				return ex.Call
			}
		}
	}
	return "Tool(arguments)"
}

func firstOr(names []string, def string) string {
	if len(names) > 0 {
		return names[0]
	}
	return def
}
