package constrain_test

import (
	"context"
	"fmt"

	"github.com/gear-chat/gear/constrain"
	"github.com/gear-chat/gear/tools"
)

func exampleMachine() *constrain.Machine {
	m, err := constrain.New(
		tools.Spec{Name: "multiply", Family: tools.FamilyCalc, Description: "product of two numbers",
			Params: []tools.Param{{Name: "a", Type: tools.TypeNumber}, {Name: "b", Type: tools.TypeNumber}}},
		tools.Spec{Name: "WeatherSearch", Family: tools.FamilyWeather, Description: "weather",
			Params: []tools.Param{{Name: "place", Type: tools.TypePlace}, {Name: "date", Type: tools.TypeDate, Optional: true}}},
		tools.Spec{Name: "Calculator", Family: tools.FamilyCalc, Description: "arithmetic",
			Params: []tools.Param{{Name: "expression", Type: tools.TypeExpression}}},
	)
	if err != nil {
		panic(err)
	}
	return m
}

func ExampleMachine_Validate() {
	m := exampleMachine()
	for _, text := range []string{`multiply(3.14, 123)`, `multiply(3.14, abc)`, `product(3.14, 123)`, `WeatherSearch("Paris", "someday")`} {
		call, err := m.Validate(text)
		fmt.Println(call, err)
	}
	// Output:
	// multiply(3.14, 123) <nil>
	// () at column 16: expected a number for b, found "abc"
	// () at column 1: unknown tool "product" (gear tools lists the library)
	// () at column 24: expected a date like "2026-11-23", "today", "tomorrow" or a weekday for date, found "someday"
}

func ExampleMachine_Repair() {
	m := exampleMachine()
	for _, text := range []string{`mulitply("3.14", 123)`, `WeatherSearch(Paris, "tomorrow`, `Calculator(sqrt(16`, `multiply(3.14)`} {
		r, err := m.Repair(text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(r.Text)
		for _, f := range r.Fixes {
			fmt.Println("  fixed:", f.What)
		}
	}
	// Output:
	// multiply(3.14, 123)
	//   fixed: tool name "mulitply" -> "multiply"
	//   fixed: "3.14" for a -> 3.14
	// WeatherSearch("Paris", "tomorrow")
	//   fixed: Paris for place -> "Paris"
	//   fixed: closed the call with "\")"
	// Calculator(sqrt(16))
	//   fixed: closed the call with "))"
	// constrain: the call cannot be repaired: at column 14: missing argument b (number) of multiply(a: number, b: number)
}

func ExampleMachine_Complete() {
	m := exampleMachine()
	fmt.Println(m.Complete("W"))
	fmt.Println(m.Complete(""))
	// Output:
	// [{WeatherSearch eatherSearch("}]
	// [{Calculator Calculator(} {WeatherSearch WeatherSearch("} {multiply multiply(}]
}

func ExampleMachine_Advance() {
	m := exampleMachine()
	s, _ := m.Advance(m.Start(), "multiply(3")
	fmt.Println(m.Allowed(s))
	for _, tok := range []string{".14,", "abc", ", 2)"} {
		next, ok := m.Advance(s, tok) // s is a value: trying a token changes nothing
		fmt.Println(tok, ok, m.Accepting(next))
	}
	// Output:
	// [\t\n\r ,.0-9]
	// .14, true false
	// abc false false
	// , 2) true true
}

// topLogprobs plays a model that prefers a hallucinated tool name.
type topLogprobs struct{ steps [][]constrain.Candidate }

func (t *topLogprobs) Next(_ context.Context, prefix string) ([]constrain.Candidate, error) {
	step := t.steps[0]
	t.steps = t.steps[1:]
	return step, nil
}

func ExampleMachine_Decode() {
	m := exampleMachine()
	src := &topLogprobs{steps: [][]constrain.Candidate{
		{{Token: "product", Logprob: -0.2}, {Token: "mult", Logprob: -1.9}},
		{{Token: "iply", Logprob: -0.1}},
		{{Token: "(3.14", Logprob: -0.3}, {Token: "(pi", Logprob: -0.4}},
		{{Token: ", 123)", Logprob: -0.2}},
	}}
	d, err := m.Decode(context.Background(), src, constrain.DecodeOptions{})
	fmt.Println(d.Text, d.Steps, err)
	// Output:
	// multiply(3.14, 123) 4 <nil>
}
