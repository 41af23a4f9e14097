package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/gear-chat/gear/llm"
	"github.com/gear-chat/gear/store"
)

// settingAnnounced keeps the last announcement of the models the
// environment chose, so each is said once per history, not every run.
const settingAnnounced = "announced_environment_models"

// environmentModels says which roles OPENAI_API_KEY or OPENAI_BASE_URL
// gave a model to, where, and how to see or change it; empty when the
// configuration named every model itself.
func (a *app) environmentModels() string {
	var roles []string
	var at string
	for _, role := range llm.Roles() {
		ep := llm.Resolve(a.cfg, role)
		if ep.Offline || !ep.DefaultModel {
			continue
		}
		roles = append(roles, string(role))
		at = ep.BaseURL
	}
	if len(roles) == 0 {
		return ""
	}
	who, from := "the server at "+at, "OPENAI_BASE_URL"
	if strings.TrimRight(at, "/") == llm.OpenAIBaseURL {
		who, from = "OpenAI", "OPENAI_API_KEY"
	}
	list := strings.Join(roles, ", ")
	if len(roles) == 3 {
		list = "chat, grounding and embeddings"
	}
	return fmt.Sprintf("using %s for %s (%s is set) — gear config shows the models, gear setup changes them", who, list, from)
}

// announceEnvironment returns the announcement when this history has not
// seen it yet, and records it (st nil: always).
func (a *app) announceEnvironment(ctx context.Context, st *store.Store) string {
	msg := a.environmentModels()
	if msg == "" || st == nil {
		return msg
	}
	if seen, ok, err := st.Setting(ctx, settingAnnounced); err == nil && ok && seen == msg {
		return ""
	}
	_ = st.SetSetting(ctx, settingAnnounced, msg)
	return msg
}
