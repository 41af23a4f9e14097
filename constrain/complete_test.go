package constrain

import (
	"fmt"
	"testing"
)

func TestComplete(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	tests := []struct {
		prefix, want string
	}{
		{"", "[{2fa_check 2fa_check(} {Calc Calc} {Calculator Calculator(} {CurrentTime CurrentTime(} {Ping Ping()} {Pow Pow(} {TimezoneConverter TimezoneConverter(\"} {Units Units(\"} {WeatherSearch WeatherSearch(\"} {WikiSearch WikiSearch(\"} {_private.x _private.x()} {everything.echo everything.echo} {everything.echo-all everything.echo-all(} {geo.mark geo.mark([} {get-weather get-weather(\"} {kv.set kv.set(\"} {multiply multiply(} {nums.sum nums.sum([} {sqrt sqrt(} {square square(}]"},
		{"everything.", "[{everything.echo echo} {everything.echo-all echo-all(}]"},
		{"get", "[{get-weather -weather(\"}]"},
		{"  Ca", "[{Calc lc} {Calculator lculator(}]"},
		{"Calc", "[{Calc } {Calculator ulator(}]"},
		{"Tim", "[{TimezoneConverter ezoneConverter(\"}]"},
		{"sq", "[{sqrt rt(} {square uare(}]"},
		{"Calculator", "[{Calculator (}]"},
		{"Pi", "[{Ping ng()}]"},
		{`{"tool": "P`, "[{Ping ing\",\"args\":{}}} {Pow ow\",\"args\":{\"base\":}]"},
		{`Units("metr`, "[{Units ic\"}]"},
		{`Units("US`, "[{Units  customary\"}]"},
		{`WeatherSearch("a"`, "[]"},
		{"Pow(2", "[]"},
		{"Nope", "[]"},
		{"Ping()", "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			got := fmt.Sprintf("%v", m.Complete(tt.prefix))
			if got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestCompletionsStayInTheMachine: every completion offered from a
// prefix the machine allows is allowed too.
func TestCompletionsStayInTheMachine(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	g := newGen(8, testSpecs())
	for i := 0; i < 3000; i++ {
		in := g.call()
		prefix := in[:g.r.IntN(len(in)+1)]
		for _, c := range m.Complete(prefix) {
			if _, ok := m.Advance(m.Start(), prefix+c.Text); !ok {
				t.Fatalf("completion %q of %q refused", c.Text, prefix)
			}
		}
	}
}
