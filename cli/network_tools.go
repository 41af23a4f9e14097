package cli

import (
	"github.com/gear-chat/gear/tools/place"
	"github.com/gear-chat/gear/tools/weather"
	"github.com/gear-chat/gear/tools/webget"
	"github.com/gear-chat/gear/tools/wiki"
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

// weatherConfig configures WeatherSearch and LocationSearch. The
// gazetteer that resolves known places without geocoding is loaded on the
// first lookup, not when the tools are listed.
func (a *app) weatherConfig(web *webget.Client) weather.Config {
	return weather.Config{
		Web:          web,
		BaseURL:      a.cfg.Tools.Weather.BaseURL,
		GeocodingURL: a.cfg.Tools.Weather.GeocodingURL,
		Units:        a.cfg.Tools.Weather.Units,
		Places:       lazyGazetteer(a.places),
		Now:          a.deps.Now,
	}
}

// lazyGazetteer looks names up in a gazetteer loaded on first use. A
// gazetteer that fails to load knows no place, so every place is geocoded
// (the time zone tools report the failure itself).
type lazyGazetteer func() (*place.Gazetteer, error)

func (load lazyGazetteer) Lookup(name string) (place.Place, bool) {
	if g := load.gazetteer(); g != nil {
		return g.Lookup(name)
	}
	return place.Place{}, false
}

// Scan finds place names in text with the gazetteer loaded on first use;
// one that fails to load finds none.
func (load lazyGazetteer) Scan(text string) []place.Mention {
	if g := load.gazetteer(); g != nil {
		return g.Scan(text)
	}
	return nil
}

// gazetteer is the loaded gazetteer, nil when there is none.
func (load lazyGazetteer) gazetteer() *place.Gazetteer {
	if load == nil {
		return nil
	}
	if g, err := load(); err == nil {
		return g
	}
	return nil
}

// wikiConfig configures WikiSearch.
func (a *app) wikiConfig(web *webget.Client) wiki.Config {
	return wiki.Config{Web: web, BaseURL: a.cfg.WikiBaseURL()}
}
