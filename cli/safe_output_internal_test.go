package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestCSVCell(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"plain":               "plain",
		"=1+2":                "'=1+2",
		"+SUM(A1)":            "'+SUM(A1)",
		"-cmd":                "'-cmd",
		"@SUM(A1)":            "'@SUM(A1)",
		"-0.25":               "-0.25",
		"+3":                  "+3",
		"a\x1b[31mred\x1b[0m": "ared",
		"two\nlines":          "two lines",
		"\u202egnp.exe":       "gnp.exe",
		"":                    "",
	}
	for in, want := range cases {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJSONEscapesInvisibleCharacters(t *testing.T) {
	t.Parallel()
	in := map[string]string{"text": "a\u0085b\u009bc\u202ed\u2066e\x7ff — ok é"}
	var buf bytes.Buffer
	if err := writeJSON(&buf, in); err != nil {
		t.Fatal(err)
	}
	want := `a\u0085b\u009bc\u202ed\u2066e\u007ff — ok é`
	if !bytes.Contains(buf.Bytes(), []byte(want)) {
		t.Errorf("JSON = %s, want it to hold %s", buf.Bytes(), want)
	}
	var back map[string]string
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back["text"] != in["text"] {
		t.Errorf("read back %q, %v", back, err)
	}
}
