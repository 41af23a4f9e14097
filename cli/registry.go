package cli

import (
	"fmt"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
)

// registry builds the tool library from the configuration.
func (a *app) registry() (*tools.Registry, error) {
	r, err := tools.NewRegistry(a.builtinTools()...)
	if err != nil {
		return nil, fmt.Errorf("tool library: %w", err)
	}
	return r, nil
}

// builtinTools are gear's own tools, in the order `gear tools` lists them.
func (a *app) builtinTools() []tools.Tool {
	return []tools.Tool{
		calc.New(),
	}
}
