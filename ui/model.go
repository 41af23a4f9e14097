package ui

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/ui/termimg"
)

// maxContentWidth bounds the conversation's text on very wide terminals,
// where longer lines are hard to read.
const maxContentWidth = 120

// Model is the chat: one root model composing small parts — the
// conversation, the input, the grounding cards, the confidence gate, the
// tool picker, the history browser, the survey form, the status line and
// the help line. It changes only in Update; every wait and every read or
// write of the history runs in a tea.Cmd.
type Model struct {
	images       termimg.Caps
	pictures     pictures
	ctx          context.Context
	agent        Agent
	history      History
	surveyOpener SurveyOpener
	library      Library
	servers      []ServerState
	allowTool    func(tool string) error
	specs        []tools.Spec
	names        []string
	engines      agent.Engines
	now          func() time.Time
	loc          *time.Location
	resume       bool
	resumable    func(store.Conversation) bool
	check        func(context.Context) ([]string, []string)
	dbLabel      string
	studyPhase   string

	st    styles
	paint *painter
	keys  keyMap
	help  help.Model
	spin  spinner.Model

	width, height  int
	conv           conversation
	in             input
	mode           store.Mode
	conversationID int64
	tokens         int

	// turn is the running turn once started, running its entry.
	turn    Turn
	running *entry
	stage   string
	gate    *agent.Confirmation
	// gateSel is the gate's selected candidate (↑↓ move it, enter runs it).
	gateSel int
	picker  *toolPicker
	browser *historyBrowser
	form    SurveyForm

	// queued are messages sent while a turn ran, sent in order after it.
	queued []string

	// flash is a passing hint, cleared by the next key; flashForTurn
	// marks one about the running turn, cleared when it ends too.
	flash        string
	flashForTurn bool
	quitArmed    bool
	quitSeq      int
	quitting     bool
}

// New builds the chat. It does no I/O: Init's commands resume the last
// conversation and prepare grounding.
func New(ctx context.Context, opts Options) (*Model, error) {
	if opts.Agent == nil {
		return nil, errors.New("ui: no agent")
	}
	r := opts.Renderer
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	m := &Model{ctx: ctx, agent: opts.Agent, history: opts.History, surveyOpener: opts.Survey, library: opts.Library, allowTool: opts.AllowTool,
		specs: opts.Agent.Specs(), engines: opts.Agent.Engines(), now: opts.Now, loc: opts.Location,
		resume: opts.Resume, resumable: opts.Resumable, check: opts.Check, mode: opts.Mode, studyPhase: cleanLine(opts.StudyPhase), width: 80, height: 24, conv: newConversation()}
	if m.now == nil {
		m.now = time.Now
	}
	if m.loc == nil {
		m.loc = time.Local
	}
	if m.mode == "" {
		m.mode = store.ModeChat
	}
	if m.library != nil {
		m.servers = m.library.Servers()
	}
	for _, s := range m.specs {
		m.names = append(m.names, s.Name)
	}
	home, _ := os.UserHomeDir()
	m.dbLabel = dbLabel(m.history, home)
	m.images = opts.Images
	if m.images.Protocol == "" || opts.NoColor && m.images.Protocol != termimg.None {
		m.images.Protocol = termimg.Link
	}
	m.keys = newKeyMap()
	m.pictures = newPictures(m.images, opts.Graphics)
	m.pictures.hint = m.keys.Image.Help().Key + " shows the image"
	m.st = newStyles(r, opts.NoColor)
	m.paint = &painter{st: m.st, md: newMarkdown(m.st), chatModel: m.engines.Chat.Engine != "" &&
		m.engines.Chat.Engine != store.EngineOffline}
	m.help = newHelp(m.st)
	m.spin = spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(m.st.spinner))
	m.in = newInput(m.st, m.keys)
	m.conv.add(&entry{kind: entryNote, text: welcomeMarkdown()})
	m.resize(m.width, m.height)
	return m, nil
}

// preparedMsg says whether grounding's preparation failed.
type preparedMsg struct{ err error }

// prepareCmd computes the tool embeddings before the first question.
func prepareCmd(ctx context.Context, a Agent) tea.Cmd {
	return func() tea.Msg { return preparedMsg{err: a.Prepare(ctx)} }
}

// checkedMsg carries what the start-up check found.
type checkedMsg struct{ notes, warnings []string }

// checkCmd runs the start-up check of the model servers.
func checkCmd(ctx context.Context, check func(context.Context) ([]string, []string)) tea.Cmd {
	return func() tea.Msg {
		notes, warnings := check(ctx)
		return checkedMsg{notes: notes, warnings: warnings}
	}
}

// Init prepares grounding, checks the model servers and reopens the last
// conversation.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{prepareCmd(m.ctx, m.agent)}
	if m.check != nil {
		cmds = append(cmds, checkCmd(m.ctx, m.check))
	}
	if m.history != nil && m.resume {
		cmds = append(cmds, latestConversationCmd(m.ctx, m.history, m.resumable))
	}
	if m.library != nil {
		cmds = append(cmds, watchLibraryCmd(m.library))
	}
	return tea.Batch(cmds...)
}

// Update applies one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		if m.form != nil {
			return m, m.updateForm(msg)
		}
	case tea.KeyMsg:
		return m, m.onKey(msg)
	case turnStartedMsg:
		m.turn = msg.turn
		return m, nextEventCmd(msg.turn)
	case turnEventMsg:
		return m, m.onTurnEvent(msg)
	case confirmedMsg:
		m.onConfirmed(msg)
	case imageViewedMsg:
		m.onImageViewed(msg)
	case imagesLoadedMsg:
		m.onImagesLoaded(msg)
	case libraryChangedMsg:
		return m, m.onLibraryChanged(msg)
	case allowedMsg:
		m.onAllowed(msg)
	case ratedMsg:
		m.onRated(msg)
	case conversationsMsg:
		m.onConversations(msg)
	case searchResultsMsg:
		m.onSearchResults(msg)
	case conversationLoadedMsg:
		m.onConversationLoaded(msg)
	case surveyOpenedMsg:
		return m, m.onSurveyOpened(msg)
	case checkedMsg:
		// The check may have left roles to the offline engine.
		m.engines = m.agent.Engines()
		m.paint.chatModel = m.engines.Chat.Engine != "" && m.engines.Chat.Engine != store.EngineOffline
		for _, n := range msg.notes {
			m.addNotice(n)
		}
		for _, w := range msg.warnings {
			m.addError(w)
		}
	case preparedMsg:
		if msg.err != nil && !errors.Is(msg.err, context.Canceled) {
			m.addError("Grounding could not prepare the tools: " + msg.err.Error())
		}
	case quitDisarmMsg:
		if msg.seq == m.quitSeq && m.quitArmed {
			m.quitArmed, m.flash = false, ""
		}
	case quitTimeoutMsg:
		return m, tea.Quit
	case spinner.TickMsg:
		if m.running == nil {
			return m, nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	default:
		switch {
		case m.form != nil:
			return m, m.updateForm(msg)
		case m.browser != nil:
			var cmd tea.Cmd
			m.browser.query, cmd = m.browser.query.Update(msg)
			return m, cmd
		}
		return m, m.in.update(msg)
	}
	return m, nil
}

func (m *Model) resize(w, h int) {
	m.width, m.height = max(w, 1), max(h, 1)
	m.in.setWidth(m.width)
	m.in.setMaxRows(m.height / 5)
	m.help.Width = m.width
	if m.browser != nil {
		m.browser.query.Width = max(m.width-12, 10)
	}
}

// contentWidth is the conversation's text width.
func (m *Model) contentWidth() int { return min(m.width, maxContentWidth) }

// convHeight is the rows left for the conversation.
func (m *Model) convHeight() int { return max(m.height-len(m.bottomLines(m.width)), 0) }

// View draws the whole screen; it renders only what changed since the
// last frame (entries keep their lines).
func (m *Model) View() string {
	if m.form != nil {
		// The questionnaire sits at the bottom, where the input is, with
		// the status line under it — not in the top rows over a blank
		// screen.
		lines := strings.Split(strings.TrimRight(m.form.View(), "\n"), "\n")
		if room := m.height - 1; len(lines) < room {
			lines = append(make([]string, room-len(lines)), lines...)
		} else if len(lines) > room {
			lines = lines[:max(room, 0)]
		}
		return strings.Join(append(lines, m.statusLine(m.width)), "\n")
	}
	bottom := m.bottomLines(m.width)
	convH := m.height - len(bottom)
	var lines []string
	if m.browser != nil {
		lines = m.historyLines(m.browser, m.width, max(convH, 1))
	} else {
		lines = m.conv.view(m.paint, m.contentWidth(), convH)
	}
	lines = append(lines, bottom...)
	if len(lines) > m.height {
		// A tiny terminal: keep the input and the lines nearest it.
		lines = lines[len(lines)-m.height:]
	}
	return strings.Join(lines, "\n")
}

// bottomLines are everything under the conversation: the progress line,
// the gate or picker, the input, the status line and the help line.
func (m *Model) bottomLines(w int) []string {
	var out []string
	if m.browser == nil {
		out = append(out, m.progressLine(w))
		if m.gate != nil {
			out = append(out, m.gateLines(m.gate, w)...)
		}
		if m.picker != nil {
			out = append(out, m.pickerLines(m.picker, w)...)
		}
		out = append(out, m.inputRule(w))
		out = append(out, strings.Split(m.in.view(), "\n")...)
	}
	return append(out, m.statusLine(w), m.helpLine(w))
}

// inputRule is the line above the input; when the input holds more than
// it shows, the rule says where its cursor is and that ↑↓ scroll.
func (m *Model) inputRule(w int) string {
	pos := m.in.position()
	label := " " + pos + " · ↑↓ scroll "
	if 2+ansi.StringWidth(label) > w {
		label = " " + pos + " "
	}
	if pos == "" || 2+ansi.StringWidth(label) > w {
		return m.st.separator.Render(strings.Repeat("─", w))
	}
	return m.st.separator.Render("──" + label + strings.Repeat("─", max(w-2-ansi.StringWidth(label), 0)))
}

// onSurveyOpened shows the questionnaire, or why it could not open.
func (m *Model) onSurveyOpened(msg surveyOpenedMsg) tea.Cmd {
	if msg.err != nil || msg.form == nil {
		if msg.err != nil {
			m.addError("The questionnaire could not open: " + msg.err.Error())
		}
		return nil
	}
	m.form = msg.form
	return m.form.Init()
}

// updateForm passes a message to the open questionnaire and closes it
// once it is done.
func (m *Model) updateForm(msg tea.Msg) tea.Cmd {
	next, cmd := m.form.Update(msg)
	if f, ok := next.(SurveyForm); ok {
		m.form = f
	}
	if summary, done := m.form.Done(); done {
		m.form = nil
		if summary != "" {
			m.addNotice(summary)
		}
	}
	return cmd
}
