package place

import "testing"

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLookup resolves a mix of names: a city, accents, an alias, a
// multi-word name, an IANA id, an offset, a country code, "City, Region".
func BenchmarkLookup(b *testing.B) {
	g := gazetteer(b)
	names := []string{"Boston", "são paulo", "LA", "new york", "Asia/Shanghai", "GMT-8", "IN", "Paris, Texas", "Tongatapu", "Tanzania"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, ok := g.Lookup(names[i%len(names)]); !ok {
			b.Fatal(names[i%len(names)])
		}
	}
}

// BenchmarkScan scans a 20-word query.
func BenchmarkScan(b *testing.B) {
	g := gazetteer(b)
	const query = "I want to make a call to someone in New York, and I am in Kathmandu; what time is it there now?"
	b.ResetTimer()
	for b.Loop() {
		if len(g.Scan(query)) != 2 {
			b.Fatal("Scan lost a place")
		}
	}
}
