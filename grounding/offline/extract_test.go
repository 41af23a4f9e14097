package offline

import (
	"context"
	"sync"
	"testing"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
)

// testEngine has the real gazetteer, loaded once for the package's tests.
var testEngine = sync.OnceValue(func() *Engine {
	g, err := place.Load()
	if err != nil {
		panic(err)
	}
	return New(Options{Places: g, Tools: builtinSpecs()})
})

func TestExpression(t *testing.T) {
	tests := []struct {
		query, want string
		explicit    bool
	}{
		{"what is 48 multiplied by 4 divided by 2", "48 * 4 / 2", true},
		{"1250 minus 15 percent", "1250 - 15% of 1250", true},
		{"log base 2 of 64", "log(2, 64)", true},
		{"what is 20 : 2", "20 / 2", true},
		{"the score was 3:1", "", false},
		{"80 plus 20%", "80 + 20% of 80", true},
		{"what is 15% of 80 minus 5", "15% of 80 - 5", true},
		{"7% sales tax on 49.99, total price", "7% of 49.99 + 49.99", true},
		{"what is a 15% tip on 80", "15% of 80", true},
		{"what is 89 divided by 3", "89 / 3", true},
		{"what is 13 times 57", "13 * 57", true},
		{"can you add 5 and 89", "5 + 89", true},
		{"can you subtract 36 from 5", "5 - 36", true},
		{"can you divide 100 by 20", "100 / 20", true},
		{"two by two", "2 * 2", true},
		{"what is 12 by 7", "12 * 7", true},
		{"3x4", "3 * 4", true},
		{"multiply three by four", "3 * 4", true},
		{"what is the square root of 8814", "sqrt(8814)", true},
		{"what's the cube root of 27", "(27) ^ (1 / 3)", true},
		{"what is 15 percent of 80", "15% of 80", true},
		{"what is 15% of 80", "15% of 80", true},
		{"2 to the power of 10", "2 ^ 10", true},
		{"what is 5 squared plus 1", "5 ^ 2 + 1", true},
		{"is 126 divisible by 8", "126 mod 8", true},
		{"the average of 72, 85 and 91", "avg(72, 85, 91)", true},
		{"the sum of 3, 4 and 5", "3 + 4 + 5", true},
		{"one hundred and fifty plus twenty-five", "150 + 25", true},
		{"what's 2+2*3", "2 + 2 * 3", true},
		{"-5 minus 3", "-5 - 3", true},
		// Word problems: the numbers joined by the operation the wording suggests.
		{"Frank read 2 pages at school, 3 on the bus and 3 at home. How many pages did Frank read?", "2 + 3 + 3", false},
		{"You want to share 34 pencils among 6 friends. How many would each friend get?", "34 / 6", true},
		{"A waiter had fourteen customers. After some left he still had three customers. How many customers left?", "14 - 3", false},
		{"Her hair is 18 cm long and it doubles. How much hair does she have now?", "18 * 2", false},
		// Powers as ordinals, fractions and percentages of amounts, factorials.
		{"3 to the 5th", "3 ^ 5", true},
		{"5 raised to the fourth power", "5 ^ 4", true},
		{"what's a quarter of 360", "(1 / 4) * 360", true},
		{"three fifths of 50", "(3 / 5) * 50", true},
		{"half of 86", "(1 / 2) * 86", true},
		{"a 20% tip on $45", "20% of 45", true},
		{"what's 7.5% sales tax on a $240 bike", "7.5% of 240", true},
		{"15% off a $60 jacket", "60 - 15% of 60", true},
		{"7 factorial", "factorial(7)", true},
		{"what is the factorial of 9", "factorial(9)", true},
		{"what's XII times IV", "12 * 4", true},
		// An amount shared out.
		{"split a $90 check among 3 friends", "90 / 3", true},
		{"we want to divide 250 dollars four ways", "250 / 4", true},
		// Conversions by fixed factors and scales.
		{"how many minutes are in a day", "86400 / 60", true},
		{"how many inches is 2 feet", "2 * 0.3048 / 0.0254", true},
		{"what is 5 kg in pounds", "5 * 1000 / 453.59237", true},
		{"100 degrees fahrenheit in celsius", "(100 - 32) * 5 / 9", true},
		{"-40 degrees celsius in fahrenheit", "(-40) * 9 / 5 + 32", true},
		{"it's 300 kelvin, what is that in celsius", "300 - 273.15", true},
		{"I ran 10 km, how many miles is that", "10 * 1000 / 1609.344", true},
		// No arithmetic.
		{"call 555-0199 please", "", false},
		{"dial 1-800-555-0100", "", false},
		{"log 250 ml of juice", "", false},
		{"remind me in 2 hours and 30 minutes", "", false},
		{"how many hours of sleep do I need", "", false},
		{"who won Super Bowl LVII", "", false},
		{"transfer ten dollars from my checking to my savings", "", false},
		{"set a timer for 10 minutes and 30 seconds", "", false},
		{"If it is 2039-12-07 02:24:01 here, what time is it there?", "", false},
		{"I need the weather for 7/13/2036 in Gwynedd Valley", "", false},
		{"what time is it in GMT-5", "", false},
		{"can you factor x squared plus 4 x plus 4", "", false},
		{"help me solve this math equation", "", false},
	}
	e := testEngine()
	for _, tt := range tests {
		a := e.analyze(tt.query)
		if a.expr != tt.want || a.expr != "" && a.explicit != tt.explicit {
			t.Errorf("%q: expression %q (explicit %v), want %q (explicit %v)", tt.query, a.expr, a.explicit, tt.want, tt.explicit)
		}
		if a.expr != "" {
			if ok, _, msg := tools.CheckExpression(a.expr); !ok {
				t.Errorf("%q: %q is not an expression: %s", tt.query, a.expr, msg)
			}
		}
	}
}

// specs are the built-in tools' specs, with their hints, a tool with an
// enum parameter and one with a string parameter and no hints.
func specs() map[string]tools.Spec {
	list := append(builtinSpecs(), tools.Spec{Name: "Units", Family: "units", Description: "units", Params: []tools.Param{
		{Name: "system", Type: tools.TypeEnum, Enum: []string{"metric", "imperial"}}, {Name: "n", Type: tools.TypeInteger, Optional: true}}},
		tools.Spec{Name: "echo_text", Family: "echo", Description: `Echoes back the text (e.g. "hi")`, Params: []tools.Param{
			{Name: "message", Type: tools.TypeString, Description: "what to echo"}}})
	m := map[string]tools.Spec{}
	for _, s := range list {
		m[s.Name] = s
	}
	return m
}

func TestCalls(t *testing.T) {
	tests := []struct {
		query, tool, want string
	}{
		{"what is 48 multiplied by 4 divided by 2", "Calculator", "Calculator(48 * 4 / 2)"},
		{"what time is it in adelaide", "CurrentTime", `CurrentTime("Adelaide")`},
		{"what time is it", "CurrentTime", `CurrentTime()`},
		{"what's today's date", "CurrentTime", `CurrentTime()`},
		// A place alone does not make a question about it one for the clock.
		{"how many people live in Nairobi", "CurrentTime", ``},
		{"who wrote Hamlet", "CurrentTime", ``},
		// Conversions: where the given time is, and where it is wanted.
		{"What is the time in Sakhalin if it is Mar 10 2038 01:27:31PM in Funafuti?", "TimezoneConverter",
			`TimezoneConverter("Mar 10 2038 01:27:31PM", "Funafuti", "Sakhalin")`},
		{"I want to make a call to someone. He is in Jerusalem, and I am in GMT-8. If it is May 25 2038 11:22:40PM here, what time is it there?",
			"TimezoneConverter", `TimezoneConverter("May 25 2038 11:22:40PM", "GMT-8", "Jerusalem")`},
		{"if it is 3pm in London what time is it in New York", "TimezoneConverter", `TimezoneConverter("3pm", "London", "New York City")`},
		{"convert 2023-03-15 18:30 Berlin time to Singapore time", "TimezoneConverter", `TimezoneConverter("2023-03-15 18:30", "Berlin", "Singapore")`},
		{"what time is it in London", "TimezoneConverter", ``},
		{"what is 9am GMT in ist", "TimezoneConverter", `TimezoneConverter("9am", "GMT", "IST")`},
		{"5 pm pacific = ? eastern", "TimezoneConverter", `TimezoneConverter("5 pm", "US/Pacific", "US/Eastern")`},
		{"Our call is at 10:00 AM PT. What time is that in Nairobi?", "TimezoneConverter", `TimezoneConverter("10:00 AM", "US/Pacific", "Nairobi")`},
		// The clock asked without "what time".
		{"clock in Nairobi?", "CurrentTime", `CurrentTime("Nairobi")`},
		{"is it morning in Honolulu right now", "CurrentTime", `CurrentTime("Honolulu")`},
		{"wie spät ist es in Wien", "CurrentTime", `CurrentTime("Vienna")`},
		{"what time does the bakery in Lyon open", "CurrentTime", ``},
		// Weather: the place, the day; "here" only when the query asks about the weather.
		{"will it rain in Oslo tomorrow?", "WeatherSearch", `WeatherSearch("Oslo", "tomorrow")`},
		{"is it going to snow on saturday", "WeatherSearch", `WeatherSearch("here", "saturday")`},
		{"what's the weather like", "WeatherSearch", `WeatherSearch("here")`},
		{"please freeze my account", "WeatherSearch", ``},
		{"wetter in Hamburg morgen", "WeatherSearch", `WeatherSearch("Hamburg", "tomorrow")`},
		{"will it snow in Quebec demain?", "WeatherSearch", `WeatherSearch("Québec", "tomorrow")`},
		{"where exactly is Timbuktu?", "LocationSearch", `LocationSearch("Timbuktu")`},
		{"share my location with steve", "LocationSearch", ``},
		// Search terms from questions and look-up requests only.
		{"define ambivalence for me please", "WikiSearch", `WikiSearch("ambivalence")`},
		{"what does idiosyncratic mean", "WikiSearch", `WikiSearch("idiosyncratic")`},
		{"can you tell me what a septuagenarian is", "WikiSearch", `WikiSearch("septuagenarian is")`},
		{"who is the lead singer of depeche mode", "WikiSearch", `WikiSearch("lead singer of depeche mode")`},
		{"Who was Ada Lovelace?", "WikiSearch", `WikiSearch("Ada Lovelace")`},
		{"look up the Berlin Wall", "WikiSearch", `WikiSearch("Berlin Wall")`},
		{"tell me about the Aztec empire", "WikiSearch", `WikiSearch("the Aztec empire")`},
		{"Can you tell me a bit about Marie Curie's life?", "WikiSearch", `WikiSearch("Marie Curie's life")`},
		{"This Dutch painter cut off part of his own ear.", "WikiSearch", `WikiSearch("Dutch painter cut off part of his own ear")`},
		{"tell me a joke about penguins", "WikiSearch", ``},
		{"play some jazz", "WikiSearch", ``},
		// Enums and integers.
		{"show 3 results in metric", "Units", `Units("metric", 3)`},
		{"use imperial", "Units", `Units("imperial")`},
		{"no system named", "Units", ``},
	}
	e := testEngine()
	sp := specs()
	reg := registryOf(t, sp)
	for _, tt := range tests {
		got, err := e.Call(context.Background(), sp[tt.tool], tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s for %q:\n got %s\nwant %s", tt.tool, tt.query, got, tt.want)
			continue
		}
		if got != "" {
			if _, err := reg.Parse(got); err != nil {
				t.Errorf("%s does not parse: %v", got, err)
			}
		}
	}
}

type specTool struct{ spec tools.Spec }

func (s specTool) Spec() tools.Spec                                    { return s.spec }
func (specTool) Run(context.Context, tools.Call) (tools.Result, error) { return tools.Result{}, nil }

func registryOf(t testing.TB, sp map[string]tools.Spec) *tools.Registry {
	t.Helper()
	var ts []tools.Tool
	for _, s := range sp {
		ts = append(ts, specTool{s})
	}
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestPreliminary(t *testing.T) {
	e := New(Options{Tools: builtinSpecs(), Evaluate: func(expr string) (string, error) { return "<" + expr + ">", nil }})
	tests := []struct{ query, want string }{
		{"what is 48 multiplied by 4 divided by 2", "<48 * 4 / 2>"},
		{"what time is it in Tokyo", shapeTime},
		{"what's the time", shapeTime},
		{"what time am i meeting john", shapeEntity},
		{"what day is it today", shapeDate},
		{"what's the date of my next paycheck", shapeEntity},
		{"will it be windy in Wellington?", shapeWeather},
		{"what's the forecast", shapeWeather},
		{"the temperature of the ac", shapeOther},
		{"A baker made 19 muffins and 31 cakes. How many did she bake?", shapeNumber},
		{"how many seasons of the rugrats are there", shapeNumber},
		{"when did the berlin wall fall", shapeYear},
		{"what does churlish mean", shapeDefinition},
		{"who wrote hamlet", shapeEntity},
		{"is the museum open", shapeYesNo},
		{"tell me a joke", shapeOther},
		{"is it past midnight there yet", shapeTime},
		{"quel temps fait-il à Lyon", shapeWeather},
		{"12 factorial", "<factorial(12)>"},
		{"how many hours is 90 minutes", "<90 * 60 / 3600>"},
		{"play stormy weather", shapeOther},
		{"set an alarm for 7 tomorrow", shapeOther},
		{"who sang stormy weather", shapeEntity},
	}
	for _, tt := range tests {
		got, err := e.Preliminary(context.Background(), tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%q: %q, want %q", tt.query, got, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Preliminary(ctx, "q"); err == nil {
		t.Error("a cancelled context was ignored")
	}
}

// FuzzCall: whatever the query, the extracted call of every tool is either
// nothing or a call the registry parses, and the preliminary answer never
// fails.
func FuzzCall(f *testing.F) {
	for _, s := range []string{"what is 48 multiplied by 4 divided by 2", "If it is 2039-12-07 02:24:01 in GMT+3, what time is it in Lima?",
		"define \"quote\"", "will it rain in Oslo tomorrow?", "a half of two-thirds plus  sqrt of -", "1,000,000 / 0 %",
		"who is \x00 \u2028 ÿ?", "what is 5 % of % 5 of of 7", "quarter past eight in the morning gmt, 14h30 in utc+3?",
		"72 f to c", "1.89 a litre, per us gallon? sq m² km/h", "I ran. Is it? That one there. How far? He did.",
		"from 10 to 0, percent decrease", "area of a circle with diameter", "tempreture tomorow wether", "¿qué es? was ist", "echo (\"hi\") text /tmp/x", "echo echo echo",
		"5 feet 10 inches in cm", "sum of the first 10 odd numbers from 3 to", "1 + 2 + ... + 0", "days between feb 30 and 2024-13-45",
		"half a dozen and a half score of gross", "Sam has 3 boxes with 4 pens each. He gives away 2 pens. How many are left?",
		"240 parts per hour for 3 h 40 min, per per", "5 ft 11 in in in", "a day and a half and a half", "how many dozen dozen"} {
		f.Add(s)
	}
	sp := specs()
	reg := registryOf(f, sp)
	e := New(Options{Tools: builtinSpecs()})
	f.Fuzz(func(t *testing.T, query string) {
		if _, err := e.Preliminary(context.Background(), query); err != nil {
			t.Fatal(err)
		}
		for _, spec := range sp {
			call, err := e.Call(context.Background(), spec, query)
			if err != nil {
				t.Fatal(err)
			}
			read, r, err := e.ReadCall(context.Background(), spec, query)
			if err != nil || read != call || r.Confidence < 0 || r.Confidence > 1 || call == "" && r.Confidence != 0 {
				t.Fatalf("%q: ReadCall = %q %+v %v; Call = %q", query, read, r, err, call)
			}
			if call == "" {
				continue
			}
			c, err := reg.Parse(call)
			if err != nil {
				t.Fatalf("%q: %s does not parse: %v", query, call, err)
			}
			if c.Tool != spec.Name {
				t.Fatalf("%q: %s is not a call of %s", query, call, spec.Name)
			}
		}
	})
}
