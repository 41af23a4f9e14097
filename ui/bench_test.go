package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/store"
)

// benchAnswer is a model's Markdown answer of a few paragraphs and a code
// block, about 600 bytes.
func benchAnswer(i int) string {
	return fmt.Sprintf("Answer **%d**: the product of 17 and 23 is 391.\n\n"+
		"It is computed as `17 * 23`; grounding chose the Calculator because the question holds "+
		"numbers and an arithmetic operation, and its pattern score matched the response.\n\n"+
		"```\nCalculator(17 * 23)\n391\n```\n\n- one point\n- another point with a [link](https://example.org)\n", i)
}

// benchModel is the chat with a chat model and the given number of
// messages (a question and its Markdown answer per turn) at 120×40, after
// a first frame.
func benchModel(b *testing.B, messages int) *harness {
	a := newFakeAgent(b)
	a.engines.Chat = store.RoleModel{Engine: "openai", Model: "gpt-4o-mini"}
	m := newTestModel(b, a, &fakeHistory{}, 120, 40)
	for i := range messages / 2 {
		rec := calcRecord()
		rec.TurnID, rec.Answer, rec.AnsweredBy = int64(i+1), benchAnswer(i), "model"
		m.conv.add(&entry{kind: entryTurn, input: fmt.Sprintf("question number %d: what is 17 * 23?", i), rec: rec})
	}
	m.View()
	return m
}

// BenchmarkKeystroke is one key typed into the input (a letter, then a
// backspace, in turn) and the frame after it. Target: ≤ 16 ms with 1,000
// messages in the conversation.
func BenchmarkKeystroke(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			m := benchModel(b, n)
			keys := []tea.KeyMsg{runes("a"), press(tea.KeyBackspace)}
			i := 0
			for b.Loop() {
				m.Update(keys[i%2])
				_ = m.View()
				i++
			}
		})
	}
}

// BenchmarkStreamedToken is one piece of a streamed answer arriving while
// 1,000 messages are in the conversation: the answer (2 KB of Markdown)
// is rendered again, nothing else.
func BenchmarkStreamedToken(b *testing.B) {
	m := benchModel(b, 1000)
	turn := newFakeTurn(nil, nil)
	m.typeText("one more question")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: turn})
	base := strings.Repeat(benchAnswer(0), 3)
	for b.Loop() {
		m.running.rec.Answer = base
		m.Update(turnEventMsg{turn: turn, event: agent.AnswerDelta{Text: " and more"}, ok: true})
		_ = m.View()
	}
}

// BenchmarkResize is a new window width and the frame after it, with 1,000
// messages: only what is on screen is rendered again.
func BenchmarkResize(b *testing.B) {
	m := benchModel(b, 1000)
	widths := []int{100, 120}
	i := 0
	for b.Loop() {
		m.Update(tea.WindowSizeMsg{Width: widths[i%2], Height: 40})
		_ = m.View()
		i++
	}
}

// BenchmarkFirstFrame is building the chat (styles, Glamour, the input)
// and drawing its first frame.
func BenchmarkFirstFrame(b *testing.B) {
	a := newFakeAgent(b)
	for b.Loop() {
		m, err := New(b.Context(), Options{Agent: a, Renderer: testRenderer(), Now: testNow})
		if err != nil {
			b.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = m.View()
	}
}

// BenchmarkStreamedTokenLong is a piece arriving at the end of a 32 KB
// answer: only its unfinished last paragraph is rendered again.
func BenchmarkStreamedTokenLong(b *testing.B) {
	m := benchModel(b, 1000)
	turn := newFakeTurn(nil, nil)
	m.typeText("one more question")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: turn})
	base := strings.Repeat(benchAnswer(0), 32<<10/len(benchAnswer(0))) + "The last paragraph is still being"
	for b.Loop() {
		m.running.rec.Answer = base
		m.Update(turnEventMsg{turn: turn, event: agent.AnswerDelta{Text: " written"}, ok: true})
		_ = m.View()
	}
}

// hostileAnswers are answers Glamour wraps in quadratic time.
var hostileAnswers = []struct{ name, text string }{
	{"cjk-4000", strings.Repeat("这是一个很长的中文回答，没有空格。", 250)},
	{"nospace-32KiB", strings.Repeat("x", 32<<10)},
}

// streamInto runs a turn whose answer arrives in 16-byte pieces through
// Update and View, as the chat does, and returns the turn and the slowest
// piece's update and frame.
func streamInto(m *harness, answer string) (*fakeTurn, time.Duration) {
	turn := newFakeTurn(nil, nil)
	m.typeText("one more question")
	m.Update(press(tea.KeyEnter))
	m.Update(turnStartedMsg{turn: turn})
	var slowest time.Duration
	for at := 0; at < len(answer); at += 16 {
		start := time.Now()
		m.Update(turnEventMsg{turn: turn, event: agent.AnswerDelta{Text: answer[at:min(at+16, len(answer))]}, ok: true})
		_ = m.View()
		slowest = max(slowest, time.Since(start))
	}
	return turn, slowest
}

// BenchmarkLongAnswer streams an answer Glamour finds hard and then ends
// the turn. final-ms is the turn's end (the last event and the frame after
// it, where the answer is rendered whole); slowest-piece-ms the worst
// streamed piece. Targets: final ≤ 1,000 ms.
func BenchmarkLongAnswer(b *testing.B) {
	for _, a := range hostileAnswers {
		b.Run(a.name, func(b *testing.B) {
			var final, slowest time.Duration
			for b.Loop() {
				m := benchModel(b, 10)
				turn, worst := streamInto(m, a.text)
				slowest = max(slowest, worst)
				rec := calcRecord()
				rec.TurnID, rec.Answer, rec.AnsweredBy = 99, a.text, "model"
				start := time.Now()
				m.Update(turnEventMsg{turn: turn, event: agent.Done{Record: rec}, ok: true})
				_ = m.View()
				final += time.Since(start)
			}
			b.ReportMetric(float64(final.Milliseconds())/float64(b.N), "final-ms")
			b.ReportMetric(float64(slowest.Microseconds())/1000, "slowest-piece-ms")
		})
	}
}

// BenchmarkKeystrokeWhileStreaming is a key typed while a long answer is
// being written (half of it arrived): its update and frame. Target ≤ 16 ms.
func BenchmarkKeystrokeWhileStreaming(b *testing.B) {
	for _, a := range hostileAnswers {
		b.Run(a.name, func(b *testing.B) {
			m := benchModel(b, 1000)
			streamInto(m, a.text[:len(a.text)/2])
			keys := []tea.KeyMsg{runes("a"), press(tea.KeyBackspace)}
			i := 0
			for b.Loop() {
				m.Update(keys[i%2])
				_ = m.View()
				i++
			}
		})
	}
}
