package offline

import (
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
	"github.com/gear-chat/gear/tools/timezone"
	"github.com/gear-chat/gear/tools/weather"
	"github.com/gear-chat/gear/tools/wiki"
)

// builtinSpecs are the built-in tools' specs, whose hints give the
// engine its vocabulary in these tests.
func builtinSpecs() []tools.Spec {
	return []tools.Spec{calc.New().Spec(),
		timezone.NewCurrentTime(timezone.Options{}).Spec(), timezone.NewConverter(timezone.Options{}).Spec(),
		weather.NewSearch(weather.Config{}).Spec(), weather.NewLocationSearch(weather.Config{}).Spec(),
		wiki.New(wiki.Config{}).Spec()}
}
