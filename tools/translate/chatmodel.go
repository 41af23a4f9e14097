package translate

import (
	"context"
	"fmt"
	"strings"

	"github.com/gear-chat/gear/sanitize"
)

// chatModel is the chat model prompted as a translator: used only when no
// translation service is configured, and labelled so.
type chatModel struct {
	chat  ChatFunc
	model string
}

func (c *chatModel) name() string {
	if c.model == "" {
		return "the chat model"
	}
	return "the chat model " + c.model
}

func (c *chatModel) limit() int { return 4000 }

func (c *chatModel) translate(ctx context.Context, chunks []string, source, target Language) (Translation, error) {
	from := "Detect the language of the text."
	if source.Code != "" {
		from = "The text is in " + source.Name + "."
	}
	system := fmt.Sprintf("You are a professional translator. Translate the user's text into %s (%s). %s "+
		"Keep its meaning, tone and formatting. Reply with the translation only: no notes, no quotes, no explanations.",
		target.Name, target.Code, from)
	var out []string
	for _, ch := range chunks {
		text, err := c.chat(ctx, system, ch)
		if err != nil {
			return Translation{}, fmt.Errorf("translating with %s: %w", c.name(), err)
		}
		text = strings.TrimSpace(sanitize.Text(text))
		if text == "" {
			return Translation{}, fmt.Errorf("translating with %s: the model answered nothing; try again or configure tools.translate.libretranslate_url", c.name())
		}
		out = append(out, text)
	}
	// Chunks were cut after sentence ends and their spaces; the model's
	// answers lose the spaces, so they are joined with one.
	return Translation{Text: strings.Join(out, " "), Source: source.Code, Target: target.Code,
		Service: c.name(), ByModel: true, Chunks: len(chunks)}, nil
}
