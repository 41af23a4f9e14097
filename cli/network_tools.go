package cli

import (
	"github.com/gear-chat/gear/tools/webget"
)

// webClient is what the network tools fetch with: the injected HTTP
// client, gear's User-Agent, and the configured deadline and size cap.
func (a *app) webClient() *webget.Client {
	return webget.New(webget.Options{
		HTTP:      a.deps.HTTP,
		UserAgent: UserAgent,
		Timeout:   a.cfg.Tools.Timeout.D(),
		MaxBytes:  a.cfg.Tools.MaxResponseBytes,
	})
}
