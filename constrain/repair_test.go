package constrain

import (
	"errors"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestRepair(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	tests := []struct {
		in, want string
		fixes    []string
	}{
		{`multiply(2, 3)`, `multiply(2, 3)`, nil},
		{`mulitply(2, 3)`, `multiply(2, 3)`, []string{`tool name "mulitply" -> "multiply"`}},
		{`Multiply(2, 3)`, `multiply(2, 3)`, []string{`tool name "Multiply" -> "multiply"`}},
		{`{"tool": "calculator", "args": {"expression": 5}}`, `{"tool": "Calculator", "args": {"expression": "5"}}`,
			[]string{`tool name "calculator" -> "Calculator"`, `5 for expression -> "5"`}},
		{`Pow("3", 2)`, `Pow(3, 2)`, []string{`"3" for base -> 3`}},
		{`{"tool": "Pow", "args": {"base": "-2.5", "exponent": "7"}}`, `{"tool": "Pow", "args": {"base": -2.5, "exponent": 7}}`,
			[]string{`"-2.5" for base -> -2.5`, `"7" for exponent -> 7`}},
		{`Pow(2, 3.0)`, `Pow(2, 3)`, []string{`3.0 for exponent -> 3`}},
		{`WeatherSearch(Berlin)`, `WeatherSearch("Berlin")`, []string{`Berlin for place -> "Berlin"`}},
		{`TimezoneConverter(2022-01-02, Paris, Tokyo)`, `TimezoneConverter("2022-01-02", "Paris", "Tokyo")`,
			[]string{`2022-01-02 for datetime -> "2022-01-02"`, `Paris for from_place -> "Paris"`, `Tokyo for to_place -> "Tokyo"`}},
		{`Calculator("2+2")`, `Calculator(2+2)`, []string{`"2+2" for expression -> 2+2`}},
		{`WeatherSearch("Berlin)`, `WeatherSearch("Berlin")`, []string{`closed the string before ")"`}},
		{`{"tool": "WikiSearch", "args": {"query": "Ghana flag}}`, `{"tool": "WikiSearch", "args": {"query": "Ghana flag"}}`, []string{`closed the string before "}}"`}},
		{`WikiSearch("Ghana flag`, `WikiSearch("Ghana flag")`, []string{`closed the call with "\")"`}},
		{`Calculator((2+3`, `Calculator((2+3))`, []string{`closed the call with "))"`}},
		{`Calculator(sqrt(16`, `Calculator(sqrt(16))`, []string{`closed the call with "))"`}},
		{`{"tool": "Calculator", "args": {"expression": "2+3`, `{"tool": "Calculator", "args": {"expression": "2+3"}}`, []string{`closed the call with "\"}}"`}},
		{`Units("metr`, `Units("metric")`, []string{`closed the call with "ic\")"`}},
		{`CurrentTime(`, `CurrentTime()`, []string{`closed the call with ")"`}},
		{`{"tool": "Ping", "args": {`, `{"tool": "Ping", "args": {}}`, []string{`closed the call with "}}"`}},
		{`Pow(2, 3`, `Pow(2, 3)`, []string{`closed the call with ")"`}},
		{`WeatherSearch("Berlin", 2026-11-23`, `WeatherSearch("Berlin", "2026-11-23")`,
			[]string{`2026-11-23 for date -> "2026-11-23"`, `closed the call with ")"`}},
		{`mulitply("3", 2`, `multiply(3, 2)`, []string{`tool name "mulitply" -> "multiply"`, `"3" for a -> 3`, `closed the call with ")"`}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := m.Repair(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != tt.want {
				t.Fatalf("repaired to %q, want %q", r.Text, tt.want)
			}
			var got []string
			for _, f := range r.Fixes {
				got = append(got, f.What)
			}
			if strings.Join(got, "; ") != strings.Join(tt.fixes, "; ") {
				t.Fatalf("fixes %q, want %q", got, tt.fixes)
			}
			want, err := tools.Parse(r.Text, m.lookup)
			if err != nil || !want.Equal(r.Call) {
				t.Fatalf("call %#v does not match the parser's %#v (%v)", r.Call, want, err)
			}
		})
	}
}

// TestRepairNeverInvents: what repair cannot do unambiguously is reported
// with the machine's error, never run.
func TestRepairNeverInvents(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	tests := []struct {
		in, want string
	}{
		{`product(2, 3)`, `unknown tool "product"`},                         // a synonym, not a misspelling
		{`sq(4)`, `unknown tool "sq"`},                                      // square and sqrt are equally near
		{`Pow(abc, 2)`, `expected a number for base`},                       // no number to recover
		{`Pow(2)`, `missing argument exponent`},                             // the value would be invented
		{`Pow(2, 3, 4)`, `too many arguments`},                              // dropping one changes the call
		{`Calculator(`, `expected an expression`},                           // nothing to close
		{`Calculator(1 +`, `expression ends where a number`},                // an operand would be invented
		{`Units(`, `expected a quoted enum for unit`},                       // even with one value left, none was begun
		{`Units("`, `unterminated string`},                                  //
		{`WikiSearch(Paris, France)`, `expected a quoted string for query`}, // where does it end?
		{`Pow(1e5, 2)`, `expected a number for base`},                       // no exponents; rewriting would be a guess
		{`TimezoneConverter("2022-01-0`, "unterminated string"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := m.Repair(tt.in)
			if err == nil {
				t.Fatalf("repaired to %q", r.Text)
			}
			var re *RepairError
			var me *Error
			if !errors.As(err, &re) || !errors.As(err, &me) {
				t.Fatalf("error %T %v", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not say %q", err, tt.want)
			}
		})
	}
}

// TestRepairOutputIsAlwaysValid: over generated damage, repair either
// gives a call the parser accepts or refuses.
func TestRepairOutputIsAlwaysValid(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	g := newGen(99, testSpecs())
	repaired := 0
	for i := 0; i < 20000; i++ {
		in := g.mutate(g.call())
		r, err := m.Repair(in)
		if err != nil {
			continue
		}
		if _, perr := tools.Parse(r.Text, m.lookup); perr != nil {
			t.Fatalf("repair of %q gave %q, which the parser refuses: %v", in, r.Text, perr)
		}
		if len(r.Fixes) > 0 {
			repaired++
		}
	}
	if repaired < 500 {
		t.Fatalf("only %d repairs", repaired)
	}
}
