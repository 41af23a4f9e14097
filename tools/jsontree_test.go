package tools

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeOrdered: the schema reader's own JSON decoder accepts what
// encoding/json accepts (but for duplicate keys and nesting beyond its
// bound, which it refuses), and reads the same values.
func FuzzDecodeOrdered(f *testing.F) {
	for _, s := range []string{`{"a": [1, -2.5e3, "x\u00e9\ud83d\ude00", true, null, {}], "b": {"c": "d\n"}}`, `[]`, `"\u0000"`,
		`{"a":1,"a":2}`, `01`, `1.`, `-`, `{"a" 1}`, `[1,]`, `"\ud800"`, "\"\xff\"", ` 3 `, `{"x": tru}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		n, err := decodeOrdered([]byte(in))
		valid := json.Valid([]byte(in))
		if err == nil && !valid {
			t.Fatalf("accepted invalid JSON %q", in)
		}
		if err != nil {
			if valid && !strings.Contains(err.Error(), "twice") && !strings.Contains(err.Error(), "deeper") {
				t.Fatalf("refused valid JSON %q: %v", in, err)
			}
			return
		}
		var want, got any
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		if dec.Decode(&want) != nil {
			t.Fatal("encoding/json refused it")
		}
		dec = json.NewDecoder(bytes.NewReader(n.raw()))
		dec.UseNumber()
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("raw() of %q is not JSON: %v", in, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%q read as %#v, want %#v", in, got, want)
		}
	})
}
