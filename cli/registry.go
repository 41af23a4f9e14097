package cli

import (
	"fmt"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/builtin"
)

// registry builds the tool library from the configuration: the built-in
// tools, the declared ones, then the MCP servers' (waiting until each has connected or
// failed; see mcpTools).
func (a *app) registry() (*tools.Registry, error) {
	ext, err := a.mcpTools(a.runCtx)
	if err != nil {
		return nil, err
	}
	return a.library(ext)
}

// library is the built-in tools, the declared tools of the tools folder
// and --tools files, and ext (the MCP servers'), checked as one library.
// It is built again when a server's tools change, so declared tools are
// loaded here too.
func (a *app) library(ext []tools.Tool) (*tools.Registry, error) {
	builtins := a.builtinTools()
	fromFiles, err := a.loadDeclared(append(append([]tools.Tool(nil), builtins...), ext...))
	if err != nil {
		return nil, err
	}
	r, err := tools.NewRegistry(append(append(builtins, fromFiles...), ext...)...)
	if err != nil {
		return nil, fmt.Errorf("tool library: %w", err)
	}
	return r, nil
}

// builtinTools are gear's own tools, configured.
func (a *app) builtinTools() []tools.Tool {
	return builtin.Tools(builtin.Options{
		Web:          a.webClient(),
		Places:       a.places,
		Home:         a.cfg.Home,
		Now:          a.deps.Now,
		WeatherURL:   a.cfg.Tools.Weather.BaseURL,
		GeocodingURL: a.cfg.Tools.Weather.GeocodingURL,
		WeatherUnits: a.cfg.Tools.Weather.Units,
		WikiURL:      a.cfg.WikiBaseURL(),
		Translation:  a.translateConfig(),
		Image:        a.imageConfig(),
	})
}
