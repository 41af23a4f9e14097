package constrain

import (
	"errors"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestValidateReportsWhereAndWhat(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	tests := []struct {
		in, want string
	}{
		{`Pow(abc, 2)`, `at column 5: expected a number for base, found "abc"`},
		{`multiply(3.14, abc)`, `at column 16: expected a number for b, found "abc"`},
		{`Pow("3", 2)`, `at column 5: expected a number for base, found "\"3\""`},
		{`Pow(2, 1.5)`, `at column 8: expected an integer for exponent, found "1.5"`},
		{`product(2, 3)`, `at column 1: unknown tool "product" (gear tools lists the library)`},
		{`mulitply(2, 3)`, `at column 1: unknown tool "mulitply" (did you mean multiply?)`},
		{`{"tool": "Calculater", "args": {}}`, `at column 11: unknown tool "Calculater" (did you mean Calculator?)`},
		{`Pow(2)`, `at column 6: missing argument exponent (integer) of Pow(base: number, exponent: integer)`},
		{`Pow(2, 3, 4)`, `at column 9: too many arguments: Pow takes 2`},
		{`Pow(2 3)`, `at column 7: expected ",", found "3"`},
		{`Ping(1)`, `at column 6: expected ")": Ping takes no arguments, found "1"`},
		{`Pow 2`, `at column 5: expected "(" after Pow, found "2"`},
		{`WeatherSearch(Berlin)`, `at column 15: expected a quoted place for place, found "Berlin"`},
		{`WeatherSearch("")`, `at column 15: empty place for place`},
		{`WeatherSearch("Berlin", "someday")`, `at column 25: expected a date like "2026-11-23", "today", "tomorrow" or a weekday for date, found "someday"`},
		{`WeatherSearch("Berlin) `, `at column 24: unterminated string`},
		{`Units("Metric")`, `at column 7: expected one of metric, imperial, US customary, a.b/c+d-e_f for unit, found "Metric"`},
		{`Units("metric", "abcd")`, `at column 17: string for note is longer than 3 characters`},
		{"CurrentTime(\"a\x01\")", `at column 15: control character in string; escape it`},
		{`CurrentTime("\ud83d")`, `at column 17: \u escape names a surrogate; write the character itself`},
		{`CurrentTime("\q")`, `at column 14: unknown escape \q in string`},
		{"CurrentTime(\"\xff\")", `at column 14: invalid UTF-8 in string`},
		{`CurrentTime() extra`, `at column 15: unexpected text after the call: "extra"`},
		{`Calculator(1 +)`, `at column 15: expression ends where a number was expected`},
		{`Calculator()`, `at column 12: missing argument expression (expression) of Calculator(expression: expression)`},
		{`Calculator(2 3)`, `at column 14: expected an operator or ")", found "3"`},
		{`Calculator(2 x)`, `at column 14: expected an operator, found "x"`},
		{`Calculator(1,2)`, `at column 15: expected three digits after the thousands ",", found ")"`},
		{`Calculator(1,2345)`, `at column 17: thousands separator followed by more than three digits`},
		{`Calculator(1.)`, `at column 14: expected a digit after the decimal point, found ")"`},
		{`Calculator(2e5)`, `at column 13: unexpected "e5" after a number`},
		{"Calculator(" + strings.Repeat("(", 33) + "1" + strings.Repeat(")", 33) + ")", `at column 44: expression nested deeper than 32 parentheses`},
		{"Calculator(" + strings.Repeat("1+", 1001) + "1)", "at column 2011: expression longer than 2000 characters"},
		{`Calculator((1+2`, `at column 16: expression ends with an unclosed "("`},
		{`Calculator(abcdefghijklmnopq)`, `at column 28: name longer than 16 letters`},
		{`{"tool": "Calculator", "args": {"expression": "1)"}}`, `at column 49: unmatched ")"`},
		{`{"tool": "Calculator", "args": {"expression": 5}}`, `at column 47: expected a quoted expression, found "5"`},
		{"{\"tool\": \"Calculator\", \"args\": {\"expression\": \"1 +\n2\"}}", `at column 51: control character in the expression; the JSON form writes an expression on one line`},
		{`{"tool": "Calculator"}`, `at column 22: expected ",", found "}"`},
		{`{"args": {}, "tool": "Calculator"}`, `at column 2: expected "tool", found "\"args\""`},
		{`{"tool": "Pow", "args": {"exponent": 3, "base": 2}}`, `at column 26: missing argument base (number) of Pow(base: number, exponent: integer)`},
		{`{"tool": "Pow", "args": {"base": 2}}`, `at column 35: missing argument exponent (integer) of Pow(base: number, exponent: integer)`},
		{`{"tool": "Pow", "args": {"base": 2, "exponent": 3, "x": 1}}`, `at column 50: too many arguments: Pow takes 2`},
		{`{"tool": "Ping", "args": {}} x`, `at column 30: unexpected text after the call: "x"`},
		{"", `at column 1: expected a tool name or "{", found the end`},
		{"-x", `at column 1: expected a tool name, found "-x"`},
		{`kv.set("k", [1,])`, `at column 16: expected a JSON value for value, found "]"`},
		{`kv.set("k", {"a" 1})`, `at column 18: expected ":", found "1"`},
		{`kv.set("k", {"a": 1]`, `at column 20: expected "," or "}" in the JSON value for value, found "]"`},
		{`kv.set("k", [1e])`, `at column 16: expected a digit in the JSON number for value, found "]"`},
		{`Pow(exponent: 3)`, `at column 5: missing argument base (number) of Pow(base: number, exponent: integer)`},
		{`Pow(base: 2, base: 3)`, `at column 14: argument base comes after base: give arguments once, in the order of Pow(base: number, exponent: integer)`},
		{`Pow(base: 2, 3)`, `at column 14: expected a parameter name and ":" (keyword arguments cannot be followed by positional ones), found "3"`},
		{`Pow(bass: 2)`, `at column 5: Pow has no parameter "bass" (Pow(base: number, exponent: integer))`},
		{`{"tool": "Units", "args": {"unit": "metric", "colour": "x"}}`, `at column 46: Units has no parameter "colour" (Units(unit: enum, [note: string]))`},
		{"everything.echo-all(true, 0)", `at column 27: expected an integer from 1 to 100 for maxResults, found "0"`},
		{"everything.echo-all(true, 7, cap: -2)", `at column 35: expected an integer of at most -3 for cap, found "-2"`},
		{"everything.echo-all(yes, 1)", `at column 21: expected true or false for twice, found "yes"`},
		{"Pow(2, ", `at column 8: expected an integer for exponent, found the end`},
		{"CurrentTime(", `at column 13: expected a quoted place for place or ")", found the end`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := m.Validate(tt.in)
			if err == nil {
				t.Fatal("accepted")
			}
			if err.Error() != tt.want {
				t.Fatalf("got  %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestValidateGivesTheParsedCall(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	call, err := m.Validate(` TimezoneConverter("2022-01-02 22:00:00", "Asia/Shanghai", "America/New_York") `)
	if err != nil {
		t.Fatal(err)
	}
	want := tools.Call{Tool: "TimezoneConverter", Args: []tools.Arg{
		{Name: "datetime", Value: tools.String("2022-01-02 22:00:00")},
		{Name: "from_place", Value: tools.String("Asia/Shanghai")},
		{Name: "to_place", Value: tools.String("America/New_York")},
	}}
	if !call.Equal(want) {
		t.Fatalf("got %#v", call)
	}
}

func TestValidateErrorsUnwrapToToolsErrors(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	_, err := m.Validate("Nope(1)")
	var ute *tools.UnknownToolError
	if !errors.As(err, &ute) || ute.Name != "Nope" {
		t.Fatalf("got %v", err)
	}
	_, err = m.Validate("Pow(x, 1)")
	var se *tools.SyntaxError
	if !errors.As(err, &se) || se.Column != 5 {
		t.Fatalf("got %v", err)
	}
}
