package cli

import (
	"fmt"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
	"github.com/gear-chat/gear/tools/timezone"
	"github.com/gear-chat/gear/tools/weather"
	"github.com/gear-chat/gear/tools/wiki"
)

// registry builds the tool library from the configuration.
func (a *app) registry() (*tools.Registry, error) {
	builtins := a.builtinTools()
	fromFiles, err := a.loadDeclared(builtins)
	if err != nil {
		return nil, err
	}
	r, err := tools.NewRegistry(append(builtins, fromFiles...)...)
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
