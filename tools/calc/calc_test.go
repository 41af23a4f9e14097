package calc

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestSpec(t *testing.T) {
	s := New().Spec()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Name != "Calculator" || s.Family != tools.FamilyCalc || s.Mock != "" {
		t.Errorf("spec = %s [%s] mock %q", s.Name, s.Family, s.Mock)
	}
	if len(s.Params) != 1 || s.Params[0].Name != "expression" || s.Params[0].Type != tools.TypeExpression {
		t.Errorf("params = %+v, want one expression", s.Params)
	}
	if n := len(s.Examples); n < 4 || n > 6 {
		t.Errorf("%d examples, want 4 to 6", n)
	}
}

// TestExamplesRun parses every usage example through a registry and runs
// it: an example that fails would teach grounding a broken call.
func TestExamplesRun(t *testing.T) {
	reg, err := tools.NewRegistry(New())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"6", "441", "24.035", "15", "78", "12157665459056928800"}
	for i, ex := range New().Spec().Examples {
		c, err := reg.Parse(ex.Call)
		if err != nil {
			t.Fatalf("example %q: %v", ex.Call, err)
		}
		res, err := reg.Run(context.Background(), c)
		if err != nil {
			t.Errorf("example %q: %v", ex.Call, err)
			continue
		}
		if i < len(want) && res.Text != want[i] {
			t.Errorf("example %q = %s, want %s", ex.Call, res.Text, want[i])
		}
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		call string
		text string
		data Data
	}{
		{"Calculator(( 76.0 - 25.0 ))", "51", Data{Expression: "( 76.0 - 25.0 )", Value: "51", Exact: true}},
		{"Calculator(1/3)", "0.333333333333", Data{Expression: "1/3", Value: "0.333333333333", Fraction: "1/3"}},
		{"Calculator(sqrt(2))", "1.41421356237", Data{Expression: "sqrt(2)", Value: "1.41421356237"}},
		{`{"tool": "Calculator", "args": {"expression": "25% of 54,788"}}`, "13697", Data{Expression: "25% of 54,788", Value: "13697", Exact: true}},
	}
	reg, err := tools.NewRegistry(New())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		c, err := reg.Parse(tt.call)
		if err != nil {
			t.Fatalf("%s: %v", tt.call, err)
		}
		res, err := reg.Run(context.Background(), c)
		if err != nil {
			t.Errorf("%s: %v", tt.call, err)
			continue
		}
		if res.Text != tt.text || res.Data != tt.data {
			t.Errorf("%s = %q %+v, want %q %+v", tt.call, res.Text, res.Data, tt.text, tt.data)
		}
	}
}

func TestRunErrors(t *testing.T) {
	reg, err := tools.NewRegistry(New())
	if err != nil {
		t.Fatal(err)
	}
	c, err := reg.Parse("Calculator(9^9^9)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Run(context.Background(), c); !tools.IsInput(err) {
		t.Errorf("9^9^9: %v, want an input error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := reg.Run(ctx, c); err != context.Canceled {
		t.Errorf("cancelled run: %v, want context.Canceled", err)
	}
}
