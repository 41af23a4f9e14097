package declared

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLoadFiles loads 200 declared tools from 20 files, as every
// command that builds the tool library does: YAML, schema, compiled
// argument check, templates and examples.
func BenchmarkLoadFiles(b *testing.B) {
	dir := b.TempDir()
	var paths []string
	for f := 0; f < 20; f++ {
		var body strings.Builder
		body.WriteString("tools:\n")
		for i := 0; i < 10; i++ {
			fmt.Fprintf(&body, `  - name: Tool%d_%d
    description: Looks up item %d of set %d in the catalogue and gives its price and stock.
    parameters:
      type: object
      properties:
        item: {type: string, description: the item's name, maxLength: 80}
        count: {type: integer, minimum: 1, maximum: 100}
        region: {type: string, enum: [eu, us, asia]}
      required: [item]
    examples:
      - query: price of blue widgets in the eu
        call: Tool%d_%d("blue widgets", 1, "eu")
      - query: is the red lamp in stock
        arguments: {item: red lamp}
    http:
      url: https://example.org/v1/items/{item}
      query: {count: "{count}", region: "{region}"}
      headers: {Authorization: "Bearer ${CATALOGUE_KEY}"}
    response:
      template: "{/name}: {/price} ({/stock} in stock)"
`, f, i, i, f, f, i)
		}
		paths = append(paths, writeDeclB(b, dir, fmt.Sprintf("f%02d.yaml", f), body.String()))
	}
	b.ResetTimer()
	for b.Loop() {
		ts, errs := LoadFiles(paths, Options{})
		if len(errs) > 0 || len(ts) != 200 {
			b.Fatalf("%d tools, %v", len(ts), errs)
		}
	}
}

func writeDeclB(b *testing.B, dir, name, body string) string {
	b.Helper()
	p := filepath.Join(dir, name)
	if err := writeFile(p, body); err != nil {
		b.Fatal(err)
	}
	return p
}
