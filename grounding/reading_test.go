package grounding_test

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// readingProber is a scriptProber that also says how well it read each
// call (a grounding.CallReader).
type readingProber struct {
	scriptProber
	readings map[string]grounding.CallReading
}

func (p *readingProber) ReadCall(ctx context.Context, spec tools.Spec, q string) (string, *grounding.CallReading, error) {
	text, err := p.Call(ctx, spec, q)
	r, ok := p.readings[spec.Name]
	if !ok {
		return text, nil, err // no reading for this tool: unknown
	}
	return text, &r, err
}

// A CallReader's reading travels with its tool's score and, for the chosen
// tool, with the choice; a plain Prober leaves it unknown.
func TestGroundCarriesCallReadings(t *testing.T) {
	t.Parallel()
	calls := map[string]string{"Calc": "Calc(5 * 12)", "Clock": `Clock("Adelaide")`, "Search": `Search("five dozen")`}
	unsure := grounding.CallReading{Confidence: 0.4, Doubts: []string{"the quantity 'dozen' found no place"}}
	for _, tc := range []struct {
		name   string
		prober grounding.Prober
		want   *grounding.CallReading
	}{
		{"reader", &readingProber{scriptProber{prelim: "60", calls: calls}, map[string]grounding.CallReading{"Calc": unsure}}, &unsure},
		{"plain prober", &scriptProber{prelim: "60", calls: calls}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg, _ := library(t)
			g, err := grounding.New(reg, engine(&wordEncoder{}, tc.prober), grounding.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			res, err := g.Ground(context.Background(), "what is five dozen in numbers with arithmetic")
			if err != nil {
				t.Fatal(err)
			}
			if res.Choice.Tool != "Calc" {
				t.Fatalf("chose %s, want Calc", res.Choice.Tool)
			}
			got := res.Choice.Reading
			if (got == nil) != (tc.want == nil) {
				t.Fatalf("choice reading %+v, want %+v", got, tc.want)
			}
			if got != nil && (got.Confidence != tc.want.Confidence || len(got.Doubts) != 1 || got.Doubts[0] != tc.want.Doubts[0]) {
				t.Errorf("choice reading %+v, want %+v", *got, *tc.want)
			}
		})
	}
}
