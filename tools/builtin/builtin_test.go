package builtin

import (
	"errors"
	"testing"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
)

func TestToolsFormALibrary(t *testing.T) {
	t.Parallel()
	ts := Tools(Options{Places: place.Load})
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range reg.Specs() {
		if s.Source != tools.Builtin {
			t.Errorf("%s: source %v", s.Name, s.Source)
		}
		if len(s.Hints.Subjects) == 0 || len(s.Hints.Aliases) == 0 {
			t.Errorf("%s carries no grounding hints", s.Name)
		}
		if err := s.Hints.Validate(s.Params); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
}

func TestEvaluate(t *testing.T) {
	t.Parallel()
	if v, err := Evaluate("2 + 2 * 3"); err != nil || v != "8" {
		t.Errorf("Evaluate = %q, %v", v, err)
	}
	if _, err := Evaluate("1 / 0"); err == nil {
		t.Error("1 / 0 evaluated")
	}
}

func TestLazyGazetteer(t *testing.T) {
	t.Parallel()
	var none LazyGazetteer
	if _, ok := none.Lookup("Oslo"); ok || none.Scan("Oslo") != nil {
		t.Error("a nil loader found a place")
	}
	broken := LazyGazetteer(func() (*place.Gazetteer, error) { return nil, errors.New("no table") })
	if _, ok := broken.Lookup("Oslo"); ok {
		t.Error("a failed load found a place")
	}
	loaded := LazyGazetteer(place.Load)
	if p, ok := loaded.Lookup("Oslo"); !ok || p.CountryCode != "NO" {
		t.Errorf("Lookup(Oslo) = %+v, %v", p, ok)
	}
	if ms := loaded.Scan("weather in Oslo"); len(ms) != 1 {
		t.Errorf("Scan = %+v", ms)
	}
}

func TestExampleCall(t *testing.T) {
	t.Parallel()
	reg, err := tools.NewRegistry(Tools(Options{})...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Parse(ExampleCall()); err != nil {
		t.Errorf("ExampleCall %q does not parse: %v", ExampleCall(), err)
	}
}
