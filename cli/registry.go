package cli

import (
	"fmt"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
	"github.com/gear-chat/gear/tools/timezone"
	"github.com/gear-chat/gear/tools/weather"
	"github.com/gear-chat/gear/tools/wiki"
)

// registry builds the tool library from the configuration: the built-in
// tools, then the MCP servers' (waiting until each has connected or
// failed; see mcpTools).
func (a *app) registry() (*tools.Registry, error) {
	ext, err := a.mcpTools(a.runCtx)
	if err != nil {
		return nil, err
	}
	return a.library(ext)
}

// library is the built-in tools plus ext, checked as one library.
func (a *app) library(ext []tools.Tool) (*tools.Registry, error) {
	r, err := tools.NewRegistry(append(a.builtinTools(), ext...)...)
	if err != nil {
		return nil, fmt.Errorf("tool library: %w", err)
	}
	return r, nil
}

// builtinTools are gear's own tools, in the order `gear tools` lists them.
func (a *app) builtinTools() []tools.Tool {
	web := a.webClient()
	weatherCfg := a.weatherConfig(web)
	return []tools.Tool{
		calc.New(),
		timezone.NewCurrentTime(timezone.Options{Places: a.places, Home: a.cfg.Home, Now: a.deps.Now}),
		timezone.NewConverter(timezone.Options{Places: a.places, Now: a.deps.Now}),
		weather.NewSearch(weatherCfg),
		weather.NewLocationSearch(weatherCfg),
		wiki.New(a.wikiConfig(web)),
	}
}
