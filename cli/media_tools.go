package cli

import (
	"context"
	"path/filepath"

	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/tools/imagegen"
	"github.com/gear-chat/gear/tools/translate"
	"github.com/gear-chat/gear/tools/webget"
)

// translateConfig is the translation tool's services from the configuration;
// the chat model translates only when no service is set, and only when a
// chat model is configured.
func (a *app) translateConfig() translate.Config {
	t := a.cfg.Tools.Translation
	tc := translate.Config{
		Web:      a.webClient(),
		LibreURL: t.LibreTranslateURL, LibreKey: t.LibreTranslateKey.Reveal(),
		DeepLKey: t.DeepLKey.Reveal(), DeepLURL: t.DeepLURL,
	}
	if ep := llm.Resolve(a.cfg, llm.RoleChat); !ep.Offline {
		tc.ChatModel = ep.Model
		tc.Chat = func(ctx context.Context, system, user string) (string, error) {
			c, err := a.llmClient(llm.RoleChat)
			if err != nil {
				return "", err
			}
			res, err := c.Chat(ctx, llm.ChatRequest{Messages: []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: user}}})
			if err != nil {
				return "", err
			}
			return res.Content, nil
		}
	}
	return tc
}

// imageConfig is models.image for the image tool: images are saved in
// images/ beside the history database. With no base URL of its own the
// role uses OPENAI_BASE_URL or OpenAI, and then OPENAI_API_KEY.
func (a *app) imageConfig() imagegen.Config {
	im := a.cfg.Models.Image
	base, key := im.BaseURL, im.APIKey.Reveal()
	if base == "" {
		base = a.cfg.Models.OpenAIBaseURL
		if key == "" {
			key = a.cfg.Models.OpenAIKey.Reveal()
		}
	}
	dir := ""
	if a.cfg.DB != "" {
		dir = filepath.Join(filepath.Dir(a.cfg.DB), "images")
	}
	return imagegen.Config{
		BaseURL: base, Model: im.Model, APIKey: key,
		Size: im.Size, ResponseFormat: im.ResponseFormat,
		Timeout: im.Timeout.D(), MaxBytes: im.MaxBytes,
		Dir: dir, HTTP: a.deps.HTTP, Web: webget.New(webget.Options{
			HTTP: a.deps.HTTP, UserAgent: UserAgent, Timeout: a.cfg.Tools.Timeout.D(), MaxBytes: im.MaxBytes,
		}),
		Now: a.deps.Now,
	}
}
