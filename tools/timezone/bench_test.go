package timezone

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// BenchmarkResolve resolves a mix of place names to zones (rules cached
// after the first use of each zone, as in a running gear).
func BenchmarkResolve(b *testing.B) {
	g, err := places()
	if err != nil {
		b.Fatal(err)
	}
	r := NewResolver(g)
	names := []string{"Boston", "são paulo", "LA", "new york", "Asia/Shanghai", "GMT-8", "PST", "Tongatapu", "Tanzania", "Paris, Texas"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := r.Resolve(names[i%len(names)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConvert runs one TimezoneConverter call end to end: parse the
// datetime, resolve both places, localize, convert, format.
func BenchmarkConvert(b *testing.B) {
	c := NewConverter(testOptions())
	call := tools.Call{Tool: "TimezoneConverter", Args: []tools.Arg{
		{Name: "datetime", Value: tools.String("Jan 2 2022 10:00:00PM")},
		{Name: "from_place", Value: tools.String("Shanghai")},
		{Name: "to_place", Value: tools.String("new york")},
	}}
	ctx := context.Background()
	if _, err := c.Run(ctx, call); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.Run(ctx, call); err != nil {
			b.Fatal(err)
		}
	}
}
